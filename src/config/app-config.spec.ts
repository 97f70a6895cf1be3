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
    });
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
    [{ API_KEY_PREFIX: 'Has_Underscore' }, /^API_KEY_PREFIX:/],
    [{ OPENAI_BASE_URL: 'ftp://x' }, /^OPENAI_BASE_URL:/],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
