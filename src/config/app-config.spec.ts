import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      baseUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      redisUrl: undefined,
      appRole: 'all',
      migrationsRun: true,
      apiKeyPrefix: 'rgs',
      defaultAccountBudgetCents: 10000,
      minScanReservationCents: 50,
      scanSyncWaitMs: 120000,
      sseHeartbeatMs: 30000,
      exportRetentionSeconds: 604800,
      storageDir: './.data/artefacts',
      enabledEngines: ['v4', 'v4.5-alpha', 'v4.5-beta', 'council'],
      offlineStepMs: 1500,
      defaultFetchProvider: 'fetch-a',
      defaultSearchProvider: 'search-a',
      defaultVerifyProvider: 'fetch-b',
      defaultAuditorModel: 'medium',
      rateLimits: { reads: 60, mutations: 30, scans: 6, exports: 30, keys: 10 },
      exportJobLockMs: 30000,
      shutdownTimeoutMs: 10000,
      sseMaxStreamsPerKey: 20,
      sseMaxStreamsPerProcess: 2000,
      scanCostCeilingPercent: 300,
      scanCostHeadroomCents: 100,
      reconcileIntervalMs: 15000,
    });
  });

  it('paces the offline engine only outside production, unless told otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'production', DASHBOARD_JWT_SECRET: 'x'.repeat(32) }).offlineStepMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production', DASHBOARD_JWT_SECRET: 'x'.repeat(32), OFFLINE_STEP_MS: '200' }).offlineStepMs).toBe(200);
    expect(loadConfig({ NODE_ENV: 'development' }).offlineStepMs).toBe(1500);
  });

  it('reads the page-read settings and refuses private-network page reads in production', () => {
    expect(loadConfig({}).pageFetch).toEqual({ readerBaseUrl: undefined, readerApiKey: undefined, allowPrivateNetwork: false });
    expect(
      loadConfig({ READER_BASE_URL: 'https://reader.internal', READER_API_KEY: 'k', FETCH_ALLOW_PRIVATE_NETWORK: 'true' }).pageFetch,
    ).toEqual({ readerBaseUrl: 'https://reader.internal', readerApiKey: 'k', allowPrivateNetwork: true });
    expect(() => loadConfig({ READER_BASE_URL: 'ftp://reader' })).toThrow(/^READER_BASE_URL: /);
    expect(() => loadConfig({ NODE_ENV: 'production', DASHBOARD_JWT_SECRET: 'x'.repeat(32), FETCH_ALLOW_PRIVATE_NETWORK: 'true' })).toThrow(
      /^FETCH_ALLOW_PRIVATE_NETWORK: not allowed when NODE_ENV=production/,
    );
  });

  it('warms the renderers at worker start except under jest, unless told otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).warmRenderers).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', DASHBOARD_JWT_SECRET: 'x'.repeat(32) }).warmRenderers).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).warmRenderers).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', WARM_RENDERERS: 'true' }).warmRenderers).toBe(true);
    expect(loadConfig({ WARM_RENDERERS: 'false' }).warmRenderers).toBe(false);
  });

  it('derives BASE_URL from PORT and trims a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ BASE_URL: 'https://api.example.com/' }).baseUrl).toBe('https://api.example.com');
  });

  it('reads provider credentials and base URLs', () => {
    const config = loadConfig({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999' });
    expect(config.providers.anthropic).toEqual({ apiKey: 'sk-test', baseUrl: 'http://127.0.0.1:9999' });
    expect(config.providers.openai).toEqual({ apiKey: undefined, baseUrl: undefined });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT: expected a whole number/],
    [{ PORT: '70000' }, /^PORT: must be between 0 and 65535/],
    [{ APP_ROLE: 'scheduler' }, /^APP_ROLE: must be one of all, api, worker/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: expected a postgres: or postgresql: URL/],
    [{ REDIS_URL: 'not a url' }, /^REDIS_URL: not a valid URL/],
    [{ MIGRATIONS_RUN: 'maybe' }, /^MIGRATIONS_RUN: expected true or false/],
    [{ ENABLED_ENGINES: 'v4,v9' }, /^ENABLED_ENGINES: unknown engine "v9"/],
    [{ DEFAULT_FETCH_PROVIDER: 'fetch-c' }, /^DEFAULT_FETCH_PROVIDER: must be one of fetch-a, fetch-b/],
    [{ DEFAULT_AUDITOR_MODEL: 'large' }, /^DEFAULT_AUDITOR_MODEL:/],
    [{ DASHBOARD_JWT_SECRET: 'short' }, /^DASHBOARD_JWT_SECRET: must be at least 32 characters/],
    [{ DASHBOARD_JWKS_URL: 'https://idp.example.com/jwks' }, /^DASHBOARD_ISSUER: required when DASHBOARD_JWKS_URL is set/],
    [{ DASHBOARD_ORIGINS: 'not-an-origin' }, /^DASHBOARD_ORIGINS:/],
    [{ RATE_LIMIT_READS: '0' }, /^RATE_LIMIT_READS: must be between 1/],
    [{ SCAN_COST_CEILING_PERCENT: '50' }, /^SCAN_COST_CEILING_PERCENT: must be between 100/],
    [{ API_KEY_PREFIX: 'Has_Underscore' }, /^API_KEY_PREFIX:/],
    [{ OPENAI_BASE_URL: 'ftp://x' }, /^OPENAI_BASE_URL:/],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('loadConfig: dashboard sessions', () => {
  const SECRET = 'a-production-secret-of-32-chars-or-more';
  const OIDC = { DASHBOARD_ISSUER: 'https://idp.example.com/', DASHBOARD_AUDIENCE: 'rgs' };

  it('refuses production without DASHBOARD_JWT_SECRET or DASHBOARD_JWKS_URL, with one line naming the variable', () => {
    const env = { NODE_ENV: 'production' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/^DASHBOARD_JWT_SECRET: required when NODE_ENV=production \(or set DASHBOARD_JWKS_URL\)[^\n]*$/);
  });

  it('starts in production with either way of verifying sessions', () => {
    expect(loadConfig({ NODE_ENV: 'production', DASHBOARD_JWT_SECRET: SECRET }).dashboard.jwtSecret).toBe(SECRET);
    const oidc = loadConfig({ NODE_ENV: 'production', DASHBOARD_JWKS_URL: 'https://idp.example.com/jwks', ...OIDC });
    expect(oidc.dashboard).toMatchObject({ jwtSecret: undefined, jwksUrl: 'https://idp.example.com/jwks' });
  });

  it.each([{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }])(
    'leaves both unset outside production (%j: development secret)',
    (env) => {
      expect(loadConfig(env).dashboard).toMatchObject({ jwtSecret: undefined, jwksUrl: undefined });
    },
  );

  it.each([
    'http://idp.example.com/jwks',
    'http://10.0.0.5/jwks',
    'http://127.0.0.1.nip.io/jwks',
    'http://[::2]/jwks',
    'http://0.0.0.0/jwks',
  ])('refuses a JWKS URL over plain http to a non-loopback host (%s)', (url) => {
    const env = { DASHBOARD_JWKS_URL: url, ...OIDC };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/^DASHBOARD_JWKS_URL: must be an https URL \(plain http only for a loopback host\)/);
  });

  it.each([
    'https://idp.example.com/.well-known/jwks.json',
    'http://127.0.0.1:8080/jwks',
    'http://127.8.9.10/jwks',
    'http://localhost:8080/jwks',
    'http://LocalHost/jwks',
    'http://[::1]:8080/jwks',
  ])('accepts the JWKS URL %s', (url) => {
    expect(loadConfig({ DASHBOARD_JWKS_URL: url, ...OIDC }).dashboard.jwksUrl).toBe(url);
  });
});

describe('loadConfig: queue dashboard', () => {
  it('has no operators and a read-only board by default', () => {
    const config = loadConfig({});
    expect(config.dashboard.operators).toEqual([]);
    expect(config.queueDashboard).toEqual({ readOnly: true });
    expect(loadConfig({ QUEUE_DASHBOARD_READ_ONLY: 'false' }).queueDashboard.readOnly).toBe(false);
  });

  it('reads operators as account:user or account:*, splitting at the first colon', () => {
    const config = loadConfig({ DASHBOARD_OPERATORS: ' acme:alice , ops:* ,, idp-1:auth0|42:x ' });
    expect(config.dashboard.operators).toEqual([
      { accountId: 'acme', subject: 'alice' },
      { accountId: 'ops', subject: '*' },
      { accountId: 'idp-1', subject: 'auth0|42:x' },
    ]);
  });

  it.each(['alice', 'acme:', ':alice', '*:*', `acme:${'u'.repeat(201)}`])('refuses the operator entry %j naming the variable', (entry) => {
    expect(() => loadConfig({ DASHBOARD_OPERATORS: entry })).toThrow(
      /^DASHBOARD_OPERATORS: ".*" is not <account_id>:<user sub> or <account_id>:\*$/,
    );
  });

  it('refuses a QUEUE_DASHBOARD_READ_ONLY that is not a boolean', () => {
    expect(() => loadConfig({ QUEUE_DASHBOARD_READ_ONLY: 'maybe' })).toThrow(/^QUEUE_DASHBOARD_READ_ONLY: expected true or false/);
  });
});

describe('loadConfig: metrics', () => {
  it('listens for scrapes on 9464 on every interface without a token by default, on a free port under jest', () => {
    expect(loadConfig({}).metrics).toEqual({ port: 9464, host: '0.0.0.0', token: undefined });
    expect(loadConfig({ NODE_ENV: 'test' }).metrics.port).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test', METRICS_PORT: '9100' }).metrics.port).toBe(9100);
  });

  it('reads the host and the bearer token', () => {
    const token = 'a-scrape-token-of-some-length';
    expect(loadConfig({ METRICS_HOST: '127.0.0.1', METRICS_TOKEN: token }).metrics).toEqual({ port: 9464, host: '127.0.0.1', token });
  });

  it.each([
    [{ METRICS_PORT: 'x' }, /^METRICS_PORT: expected a whole number/],
    [{ METRICS_PORT: '70000' }, /^METRICS_PORT: must be between 0 and 65535/],
    [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN: must be at least 16 characters/],
    [{ METRICS_HOST: 'not a host!' }, /^METRICS_HOST:/],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('loadConfig: artefact storage', () => {
  const S3 = { STORAGE_DRIVER: 's3', S3_BUCKET: 'rgs-artefacts' };
  const PRODUCTION = { NODE_ENV: 'production', DASHBOARD_JWT_SECRET: 'x'.repeat(32) };

  it('keeps artefacts on the filesystem by default', () => {
    expect(loadConfig({})).toMatchObject({ storageDriver: 'filesystem', storageDir: './.data/artefacts', s3: undefined });
    expect(loadConfig({ S3_BUCKET: 'ignored' }).s3).toBeUndefined();
  });

  it('reads an S3-compatible bucket with path-style addressing for a custom endpoint', () => {
    const config = loadConfig({
      ...S3,
      S3_REGION: 'eu-central-1',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'minio',
      S3_SECRET_ACCESS_KEY: 'minio-secret',
      S3_KEY_PREFIX: 'rgs/prod',
      S3_CREATE_BUCKET: 'true',
    });
    expect(config.storageDriver).toBe('s3');
    expect(config.s3).toEqual({
      bucket: 'rgs-artefacts',
      region: 'eu-central-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'minio', secretAccessKey: 'minio-secret' },
      keyPrefix: 'rgs/prod/',
      createBucket: true,
    });
  });

  it('defaults to AWS: virtual-hosted addressing, the SDK credential chain, no prefix, no bucket creation', () => {
    expect(loadConfig({ ...S3, AWS_REGION: 'eu-west-1' }).s3).toEqual({
      bucket: 'rgs-artefacts',
      region: 'eu-west-1',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
      keyPrefix: '',
      createBucket: false,
    });
    expect(loadConfig(S3).s3!.region).toBe('us-east-1');
    expect(
      loadConfig({ ...S3, S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com', S3_FORCE_PATH_STYLE: 'false' }).s3!.forcePathStyle,
    ).toBe(false);
  });

  it('starts in production with a complete S3 configuration', () => {
    expect(loadConfig({ ...PRODUCTION, ...S3, S3_REGION: 'eu-west-1' }).s3!.bucket).toBe('rgs-artefacts');
  });

  it.each([
    [{ STORAGE_DRIVER: 'gcs' }, /^STORAGE_DRIVER: must be one of filesystem, s3/],
    [{ STORAGE_DRIVER: 's3' }, /^S3_BUCKET: required when STORAGE_DRIVER=s3/],
    [{ ...S3, S3_BUCKET: 'Not_A_Bucket' }, /^S3_BUCKET: /],
    [{ ...S3, S3_ENDPOINT: 'ftp://minio' }, /^S3_ENDPOINT: expected a http: or https: URL/],
    [{ ...S3, S3_ACCESS_KEY_ID: 'only-the-id' }, /^S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID/],
    [{ ...S3, S3_SECRET_ACCESS_KEY: 'only-the-secret' }, /^S3_ACCESS_KEY_ID: required with S3_SECRET_ACCESS_KEY/],
    [{ ...S3, S3_KEY_PREFIX: '../escape' }, /^S3_KEY_PREFIX: /],
    [{ ...S3, S3_FORCE_PATH_STYLE: 'sometimes' }, /^S3_FORCE_PATH_STYLE: expected true or false/],
    [{ ...PRODUCTION, ...S3 }, /^S3_REGION: required when STORAGE_DRIVER=s3 and NODE_ENV=production/],
    [{ ...PRODUCTION, STORAGE_DRIVER: 's3', S3_REGION: 'eu-west-1' }, /^S3_BUCKET: required when STORAGE_DRIVER=s3/],
  ])('refuses an incomplete or invalid S3 configuration %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('applies the webhook defaults', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowLoopbackUrls: false,
      maxAttempts: 8,
      backoffMs: 30000,
      timeoutMs: 10000,
      disableAfterSeconds: 432000,
      workerConcurrency: 2,
      maxEndpointsPerAccount: 20,
      deliveryRetentionDays: 30,
      secretRotationGraceSeconds: 86400,
      budgetLowThresholdPercent: 10,
    });
    expect(loadConfig({ WEBHOOK_WORKER_CONCURRENCY: '6' }).webhooks.workerConcurrency).toBe(6);
  });

  it.each([
    [{ ...PRODUCTION, WEBHOOK_ALLOW_LOOPBACK_URLS: 'true' }, /^WEBHOOK_ALLOW_LOOPBACK_URLS: not allowed when NODE_ENV=production/],
    [{ WEBHOOK_MAX_ATTEMPTS: '0' }, /^WEBHOOK_MAX_ATTEMPTS: must be between 1 and 50/],
    [{ WEBHOOK_TIMEOUT_MS: 'soon' }, /^WEBHOOK_TIMEOUT_MS: expected a whole number/],
    [{ WEBHOOK_DISABLE_AFTER_SECONDS: '5' }, /^WEBHOOK_DISABLE_AFTER_SECONDS: must be between 60/],
    [{ WEBHOOK_WORKER_CONCURRENCY: '0' }, /^WEBHOOK_WORKER_CONCURRENCY: must be between 1 and 64/],
    [{ WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT: '0' }, /^WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT: must be between 1 and 1000/],
    [{ WEBHOOK_DELIVERY_RETENTION_DAYS: '5' }, /^WEBHOOK_DELIVERY_RETENTION_DAYS: must cover more than WEBHOOK_DISABLE_AFTER_SECONDS \(432000 s\)/],
    [{ WEBHOOK_SECRET_ROTATION_GRACE_SECONDS: '-1' }, /^WEBHOOK_SECRET_ROTATION_GRACE_SECONDS: must be between 0/],
    [{ BUDGET_LOW_THRESHOLD_PERCENT: '101' }, /^BUDGET_LOW_THRESHOLD_PERCENT: must be between 0 and 100/],
  ])('refuses the webhook setting %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('loadConfig: self-hosted models (OpenAI-compatible)', () => {
  const BASE = { OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_COMPATIBLE_MODELS: 'large=llama-3.3-70b-instruct,small=llama-3.1-8b' };

  it('is off without a base URL', () => {
    expect(loadConfig({}).openaiCompatible).toBeUndefined();
  });

  it('reads the endpoint, the model map and the defaults: no key, openai style, no price, the generic label', () => {
    expect(loadConfig(BASE).openaiCompatible).toEqual({
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: undefined,
      apiStyle: 'openai',
      apiVersion: '2024-10-21',
      label: 'Self-hosted (OpenAI-compatible)',
      models: { large: 'llama-3.3-70b-instruct', small: 'llama-3.1-8b' },
      inputCentsPer1k: 0,
      outputCentsPer1k: 0,
    });
    const azure = loadConfig({
      ...BASE,
      OPENAI_COMPATIBLE_API_STYLE: 'azure',
      OPENAI_COMPATIBLE_API_KEY: 'azure-key',
      OPENAI_COMPATIBLE_API_VERSION: '2025-04-01-preview',
      OPENAI_COMPATIBLE_LABEL: 'Azure OpenAI (EU)',
      OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_INPUT: '0.25',
      OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_OUTPUT: '1',
    }).openaiCompatible;
    expect(azure).toMatchObject({
      apiStyle: 'azure',
      apiKey: 'azure-key',
      apiVersion: '2025-04-01-preview',
      label: 'Azure OpenAI (EU)',
      inputCentsPer1k: 0.25,
      outputCentsPer1k: 1,
    });
  });

  it.each([
    [{ OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:8000/v1' }, /^OPENAI_COMPATIBLE_MODELS: required when OPENAI_COMPATIBLE_BASE_URL is set/],
    [{ OPENAI_COMPATIBLE_MODELS: 'large=x' }, /^OPENAI_COMPATIBLE_BASE_URL: required when OPENAI_COMPATIBLE_MODELS or OPENAI_COMPATIBLE_API_KEY is set/],
    [{ ...BASE, OPENAI_COMPATIBLE_BASE_URL: 'ftp://models.internal' }, /^OPENAI_COMPATIBLE_BASE_URL: expected a http: or https: URL/],
    [{ ...BASE, OPENAI_COMPATIBLE_MODELS: 'llama-3.3-70b' }, /^OPENAI_COMPATIBLE_MODELS: "llama-3.3-70b" is not <tier>=<model>/],
    [{ ...BASE, OPENAI_COMPATIBLE_MODELS: 'xl=llama' }, /^OPENAI_COMPATIBLE_MODELS: "xl" is not a tier/],
    [{ ...BASE, OPENAI_COMPATIBLE_API_STYLE: 'bedrock' }, /^OPENAI_COMPATIBLE_API_STYLE: must be one of openai, azure/],
    [{ ...BASE, OPENAI_COMPATIBLE_API_STYLE: 'azure' }, /^OPENAI_COMPATIBLE_API_KEY: required when OPENAI_COMPATIBLE_API_STYLE=azure/],
    [{ ...BASE, OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_INPUT: '-1' }, /^OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_INPUT: expected a number of cents/],
    [{ ...BASE, OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_OUTPUT: 'free' }, /^OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_OUTPUT: expected a number of cents/],
    [{ ...BASE, OPENAI_COMPATIBLE_LABEL: 'x'.repeat(101) }, /^OPENAI_COMPATIBLE_LABEL: at most 100 characters/],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
    expect(() => loadConfig(env)).toThrow(/^[^\n]*$/);
  });
});
