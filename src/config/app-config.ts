import { isIP, isIPv4 } from 'node:net';
import { ENGINE_IDS } from '../domain/vocabulary/engines';
import {
  type CompatibleModelMap,
  OPENAI_COMPATIBLE_DEFAULT_LABEL,
  parseCompatibleModelMap,
  VENDOR_KEYS,
  type VendorKey,
} from '../domain/vocabulary/models';

/** Typed, validated configuration (../shared/spec/decisions.md section 4). Built once at start-up from the environment. */
export type AppRole = 'all' | 'api' | 'worker';

/** A user allowed into the operator pages: a session's `account_id` and `sub`, or `*` for every user of the account. */
export interface DashboardOperator {
  accountId: string;
  subject: string;
}

export interface AppConfig {
  port: number;
  baseUrl: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix for every Redis key and Bull queue this deployment owns (lets test runs share one Redis). */
  redisPrefix: string;
  appRole: AppRole;
  migrationsRun: boolean;
  apiKeyPrefix: string;
  dashboard: {
    jwtSecret: string | undefined;
    jwksUrl: string | undefined;
    issuer: string | undefined;
    audience: string | undefined;
    origins: string[];
    /** DASHBOARD_OPERATORS; a session with the claim `operator: true` is an operator too. */
    operators: DashboardOperator[];
  };
  /** Bull Board at /admin/queues (docs/decisions.md "Queue dashboard"): retry, clean, pause... only when not read-only. */
  queueDashboard: { readOnly: boolean };
  defaultAccountBudgetCents: number;
  minScanReservationCents: number;
  scanSyncWaitMs: number;
  sseHeartbeatMs: number;
  exportRetentionSeconds: number;
  /** Where artefact bytes live: files under storageDir (default) or objects in an S3-compatible bucket (s3). */
  storageDriver: StorageDriver;
  storageDir: string;
  /** Set only when storageDriver is s3 (docs/decisions.md "Object storage"). */
  s3: S3StorageSettings | undefined;
  enabledEngines: string[];
  offlineStepMs: number;
  defaultFetchProvider: 'fetch-a' | 'fetch-b';
  defaultSearchProvider: 'search-a' | 'search-b';
  defaultVerifyProvider: 'fetch-a' | 'fetch-b';
  /** Egress proxy for page fetches (fetch-a); unset = direct, with every resolved address checked. */
  fetchProxyUrl: string | undefined;
  defaultAuditorModel: string;
  rateLimits: { reads: number; mutations: number; scans: number; exports: number; keys: number };
  scanWorkerConcurrency: number;
  /** Bull job lock; a worker silent this long is presumed dead and its scan job is recovered. */
  scanJobLockMs: number;
  exportWorkerConcurrency: number;
  /** Render every in-process artefact type once when a worker starts, so its first export is not its slowest. */
  warmRenderers: boolean;
  /** Bull job lock of exports, as scanJobLockMs for scans. */
  exportJobLockMs: number;
  /** SIGTERM: how long in-flight requests and jobs get before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Open scan streams allowed per API key (all processes) and per process. */
  sseMaxStreamsPerKey: number;
  sseMaxStreamsPerProcess: number;
  /** A running scan stops once its cost passes max(reservation x this percentage, reservation + scanCostHeadroomCents). */
  scanCostCeilingPercent: number;
  scanCostHeadroomCents: number;
  /** How often workers look for scans and exports whose jobs were lost or failed without their state being written. */
  reconcileIntervalMs: number;
  logLevel: string;
  /** NODE_ENV as given (logs are pretty-printed in a terminal unless it is production). */
  nodeEnv: string | undefined;
  /** The Prometheus scrape listener every process (API or worker) opens (docs/decisions.md "Metrics"). */
  metrics: { port: number; host: string; token: string | undefined };
  providers: Record<VendorKey, { apiKey: string | undefined; baseUrl: string | undefined }>;
  /** Self-hosted models behind an OpenAI-compatible endpoint; unset without OPENAI_COMPATIBLE_BASE_URL. */
  openaiCompatible: OpenAiCompatibleSettings | undefined;
  /** Signed webhooks (docs/decisions.md "Webhooks"). */
  webhooks: WebhookSettings;
  /** Page reads (fetch-a, fetch-b): see readPageFetchSettings. */
  pageFetch: PageFetchSettings;
}

/** Page-read backends: the fetch-b reader service, and the loopback escape hatch of fetch-a for tests. */
export interface PageFetchSettings {
  /** fetch-b's reader service; unset = the public reader (https://r.jina.ai). */
  readerBaseUrl: string | undefined;
  /** Sent to the reader as a Bearer token; unset = none (the public reader's lower rate limit). */
  readerApiKey: string | undefined;
  /** Lets fetch-a reach loopback and private addresses: tests and development only, refused in production. */
  allowPrivateNetwork: boolean;
}

export interface WebhookSettings {
  /** Lets endpoints on this host (loopback, plain http allowed) be registered and called: tests and development only. */
  allowLoopbackUrls: boolean;
  maxAttempts: number;
  /** Delay after the first failed attempt; it doubles after each further one. */
  backoffMs: number;
  timeoutMs: number;
  /** An endpoint whose deliveries have all failed for this long is disabled with a reason. */
  disableAfterSeconds: number;
  /** Deliveries one worker process sends at once. */
  workerConcurrency: number;
  /** Endpoints one account may register (API and CLI alike). */
  maxEndpointsPerAccount: number;
  /** Finished deliveries (and their attempts) older than this are deleted by the workers' retention sweep. */
  deliveryRetentionDays: number;
  /** After a secret rotation, the previous secret signs alongside the new one for this long. */
  secretRotationGraceSeconds: number;
  /** `budget.low` is recorded when a ledger change takes the remaining below this percentage of the pool; 0 = never. */
  budgetLowThresholdPercent: number;
}

/** docs/decisions.md "Self-hosted models". */
export interface OpenAiCompatibleSettings {
  /** Chat Completions are POSTed to `{baseUrl}/chat/completions` (azure: `{baseUrl}/openai/deployments/{model}/...`). */
  baseUrl: string;
  /** Optional: most local servers need none. Sent as `Authorization: Bearer` (azure: the `api-key` header). */
  apiKey: string | undefined;
  apiStyle: 'openai' | 'azure';
  /** The `api-version` query of the azure style. */
  apiVersion: string;
  label: string;
  /** Our tier -> the served model name (azure: the deployment name). */
  models: CompatibleModelMap;
  inputCentsPer1k: number;
  outputCentsPer1k: number;
}

export type StorageDriver = 'filesystem' | 's3';

export interface S3StorageSettings {
  bucket: string;
  region: string;
  /** MinIO, R2, GCS interoperability…; unset = AWS S3. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  /** Unset = the SDK's default credential chain (environment, profile, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Prepended to every key; empty or ending in '/'. */
  keyPrefix: string;
  /** Create the bucket at start-up when it does not exist (MinIO in docker compose); off for provisioned buckets. */
  createBucket: boolean;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {}

const KNOWN_ENGINES: readonly string[] = ENGINE_IDS;

type Env = Record<string, string | undefined>;

class Reader {
  constructor(private readonly env: Env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optional(name: string): string | undefined {
    return this.raw(name);
  }

  int(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^-?\d+$/.test(value)) throw new ConfigError(`${name}: expected a whole number, got "${value}"`);
    const parsed = Number(value);
    if (parsed < min || parsed > max) throw new ConfigError(`${name}: must be between ${min} and ${max}, got ${parsed}`);
    return parsed;
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', '1', 'yes'].includes(value)) return true;
    if (['false', '0', 'no'].includes(value)) return false;
    throw new ConfigError(`${name}: expected true or false, got "${value}"`);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!allowed.includes(value as T)) throw new ConfigError(`${name}: must be one of ${allowed.join(', ')}, got "${value}"`);
    return value as T;
  }

  url(name: string, protocols: string[]): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(`${name}: not a valid URL`);
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new ConfigError(`${name}: expected a ${protocols.join(' or ')} URL, got "${parsed.protocol}"`);
    }
    return value;
  }
}

/** 127.0.0.0/8, ::1 and localhost (URL.hostname form: lower case, IPv6 in brackets). */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || (isIPv4(hostname) && hostname.startsWith('127.'));
}

/** `<account_id>:<sub>` or `<account_id>:*`, split at the first colon (a subject may contain colons, an account id not). */
function dashboardOperator(entry: string): DashboardOperator {
  const colon = entry.indexOf(':');
  const accountId = entry.slice(0, colon).trim();
  const subject = entry.slice(colon + 1).trim();
  // Sessions with longer claims are refused (DashboardSessionService), so a longer entry could never match.
  if (colon < 0 || !accountId || !subject || accountId === '*' || accountId.length > 200 || subject.length > 200) {
    throw new ConfigError(`DASHBOARD_OPERATORS: "${entry}" is not <account_id>:<user sub> or <account_id>:*`);
  }
  return { accountId, subject };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const read = new Reader(env);
  const port = read.int('PORT', 3000, 0, 65535);
  const baseUrl = (read.url('BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');

  const apiKeyPrefix = read.string('API_KEY_PREFIX', 'rgs');
  if (!/^[a-z][a-z0-9]{1,15}$/.test(apiKeyPrefix)) {
    throw new ConfigError('API_KEY_PREFIX: 2 to 16 lowercase letters or digits, starting with a letter');
  }

  const jwtSecret = read.optional('DASHBOARD_JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('DASHBOARD_JWT_SECRET: must be at least 32 characters (HS256 key)');
  }
  const jwksUrl = read.url('DASHBOARD_JWKS_URL', ['http:', 'https:']);
  // Whoever can alter the key set in transit can mint sessions; loopback http serves local identity providers and tests.
  const jwks = jwksUrl ? new URL(jwksUrl) : undefined;
  if (jwks?.protocol === 'http:' && !isLoopbackHost(jwks.hostname)) {
    throw new ConfigError(`DASHBOARD_JWKS_URL: must be an https URL (plain http only for a loopback host), got "${jwksUrl}"`);
  }
  const issuer = read.optional('DASHBOARD_ISSUER');
  const audience = read.optional('DASHBOARD_AUDIENCE');
  if (jwksUrl && (!issuer || !audience)) {
    throw new ConfigError(`${issuer ? 'DASHBOARD_AUDIENCE' : 'DASHBOARD_ISSUER'}: required when DASHBOARD_JWKS_URL is set`);
  }
  // The development secret (src/common/auth/dashboard-secret.ts) is generated on disk: not a production credential.
  if (!jwtSecret && !jwksUrl && read.optional('NODE_ENV') === 'production') {
    throw new ConfigError(
      'DASHBOARD_JWT_SECRET: required when NODE_ENV=production (or set DASHBOARD_JWKS_URL); the generated development secret is not used in production',
    );
  }

  const enabledEngines = read
    .string('ENABLED_ENGINES', KNOWN_ENGINES.join(','))
    .split(',')
    .map((engine) => engine.trim())
    .filter(Boolean);
  const unknownEngine = enabledEngines.find((engine) => !KNOWN_ENGINES.includes(engine));
  if (unknownEngine) throw new ConfigError(`ENABLED_ENGINES: unknown engine "${unknownEngine}" (known: ${KNOWN_ENGINES.join(', ')})`);

  const defaultAuditorModel = read.string('DEFAULT_AUDITOR_MODEL', 'medium');
  if (defaultAuditorModel !== 'medium') throw new ConfigError('DEFAULT_AUDITOR_MODEL: the only supported auditor model is "medium"');

  const origins = read
    .string('DASHBOARD_ORIGINS', '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const origin of origins) {
    try {
      new URL(origin);
    } catch {
      throw new ConfigError(`DASHBOARD_ORIGINS: "${origin}" is not an origin such as https://app.example.com`);
    }
  }

  const operators = read
    .string('DASHBOARD_OPERATORS', '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map(dashboardOperator);

  const metricsHost = read.string('METRICS_HOST', '0.0.0.0');
  if (!isIP(metricsHost) && !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(metricsHost)) {
    throw new ConfigError(`METRICS_HOST: expected an IP address or a host name, got "${metricsHost}"`);
  }
  const metricsToken = read.optional('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN: must be at least 16 characters');

  const providers = Object.fromEntries(
    VENDOR_KEYS.map((key) => {
      const upper = key.toUpperCase();
      return [key, { apiKey: read.optional(`${upper}_API_KEY`), baseUrl: read.url(`${upper}_BASE_URL`, ['http:', 'https:']) }];
    }),
  ) as AppConfig['providers'];

  const storageDriver = read.oneOf('STORAGE_DRIVER', ['filesystem', 's3'] as const, 'filesystem');

  return {
    port,
    baseUrl,
    databaseUrl: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: read.url('REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: read.string('REDIS_PREFIX', 'rgs'),
    appRole: read.oneOf('APP_ROLE', ['all', 'api', 'worker'] as const, 'all'),
    migrationsRun: read.bool('MIGRATIONS_RUN', true),
    apiKeyPrefix,
    dashboard: { jwtSecret, jwksUrl, issuer, audience, origins, operators },
    queueDashboard: { readOnly: read.bool('QUEUE_DASHBOARD_READ_ONLY', true) },
    defaultAccountBudgetCents: read.int('DEFAULT_ACCOUNT_BUDGET_CENTS', 10000, 0),
    minScanReservationCents: read.int('MIN_SCAN_RESERVATION_CENTS', 50, 0),
    scanSyncWaitMs: read.int('SCAN_SYNC_WAIT_MS', 120000, 0, 600000),
    sseHeartbeatMs: read.int('SSE_HEARTBEAT_MS', 30000, 100),
    exportRetentionSeconds: read.int('EXPORT_RETENTION_SECONDS', 604800, 1),
    storageDriver,
    storageDir: read.string('STORAGE_DIR', './.data/artefacts'),
    s3: storageDriver === 's3' ? readS3Settings(read) : undefined,
    enabledEngines,
    // Demo pacing (../shared/spec/decisions.md section 4): none in production.
    offlineStepMs: read.int('OFFLINE_STEP_MS', read.optional('NODE_ENV') === 'production' ? 0 : 1500, 0, 600000),
    defaultFetchProvider: read.oneOf('DEFAULT_FETCH_PROVIDER', ['fetch-a', 'fetch-b'] as const, 'fetch-a'),
    defaultSearchProvider: read.oneOf('DEFAULT_SEARCH_PROVIDER', ['search-a', 'search-b'] as const, 'search-a'),
    defaultVerifyProvider: read.oneOf('DEFAULT_VERIFY_PROVIDER', ['fetch-a', 'fetch-b'] as const, 'fetch-b'),
    fetchProxyUrl: read.url('FETCH_PROXY_URL', ['http:', 'https:']),
    defaultAuditorModel,
    rateLimits: {
      reads: read.int('RATE_LIMIT_READS', 60, 1),
      mutations: read.int('RATE_LIMIT_MUTATIONS', 30, 1),
      scans: read.int('RATE_LIMIT_SCANS', 6, 1),
      exports: read.int('RATE_LIMIT_EXPORTS', 30, 1),
      keys: read.int('RATE_LIMIT_KEYS', 10, 1),
    },
    scanWorkerConcurrency: read.int('SCAN_WORKER_CONCURRENCY', 4, 1, 64),
    scanJobLockMs: read.int('SCAN_JOB_LOCK_MS', 30000, 1000, 600000),
    exportWorkerConcurrency: read.int('EXPORT_WORKER_CONCURRENCY', 2, 1, 64),
    // Off under jest (NODE_ENV=test): every test boot would pay a few seconds of rendering for nothing.
    warmRenderers: read.bool('WARM_RENDERERS', read.optional('NODE_ENV') !== 'test'),
    exportJobLockMs: read.int('EXPORT_JOB_LOCK_MS', 30000, 1000, 600000),
    shutdownTimeoutMs: read.int('SHUTDOWN_TIMEOUT_MS', 10000, 0, 600000),
    sseMaxStreamsPerKey: read.int('SSE_MAX_STREAMS_PER_KEY', 20, 1, 10000),
    sseMaxStreamsPerProcess: read.int('SSE_MAX_STREAMS_PER_PROCESS', 2000, 1, 100000),
    scanCostCeilingPercent: read.int('SCAN_COST_CEILING_PERCENT', 300, 100, 100000),
    scanCostHeadroomCents: read.int('SCAN_COST_HEADROOM_CENTS', 100, 0),
    reconcileIntervalMs: read.int('RECONCILE_INTERVAL_MS', 15000, 100, 600000),
    logLevel: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    nodeEnv: read.optional('NODE_ENV'),
    // Under jest (NODE_ENV=test) many apps boot at once in one machine: each takes a free port instead.
    metrics: {
      port: read.int('METRICS_PORT', read.optional('NODE_ENV') === 'test' ? 0 : 9464, 0, 65535),
      host: metricsHost,
      token: metricsToken,
    },
    providers,
    openaiCompatible: readOpenAiCompatibleSettings(read),
    webhooks: readWebhookSettings(read),
    pageFetch: readPageFetchSettings(read),
  };
}

function readPageFetchSettings(read: Reader): PageFetchSettings {
  const allowPrivateNetwork = read.bool('FETCH_ALLOW_PRIVATE_NETWORK', false);
  if (allowPrivateNetwork && read.optional('NODE_ENV') === 'production') {
    throw new ConfigError(
      'FETCH_ALLOW_PRIVATE_NETWORK: not allowed when NODE_ENV=production (page reads must not reach internal addresses)',
    );
  }
  return {
    readerBaseUrl: read.url('READER_BASE_URL', ['http:', 'https:']),
    readerApiKey: read.optional('READER_API_KEY'),
    allowPrivateNetwork,
  };
}

/** Azure OpenAI's latest GA data-plane inference version when this was written. */
const DEFAULT_AZURE_API_VERSION = '2024-10-21';

function readOpenAiCompatibleSettings(read: Reader): OpenAiCompatibleSettings | undefined {
  const baseUrl = read.url('OPENAI_COMPATIBLE_BASE_URL', ['http:', 'https:']);
  const modelsText = read.optional('OPENAI_COMPATIBLE_MODELS');
  const apiKey = read.optional('OPENAI_COMPATIBLE_API_KEY');
  if (!baseUrl) {
    if (modelsText || apiKey) {
      throw new ConfigError('OPENAI_COMPATIBLE_BASE_URL: required when OPENAI_COMPATIBLE_MODELS or OPENAI_COMPATIBLE_API_KEY is set');
    }
    return undefined;
  }
  if (!modelsText) {
    throw new ConfigError(
      'OPENAI_COMPATIBLE_MODELS: required when OPENAI_COMPATIBLE_BASE_URL is set, e.g. large=llama-3.3-70b-instruct,small=llama-3.1-8b',
    );
  }
  let models: CompatibleModelMap;
  try {
    models = parseCompatibleModelMap(modelsText);
  } catch (error) {
    throw new ConfigError(`OPENAI_COMPATIBLE_MODELS: ${(error as Error).message}`);
  }
  const apiStyle = read.oneOf('OPENAI_COMPATIBLE_API_STYLE', ['openai', 'azure'] as const, 'openai');
  if (apiStyle === 'azure' && !apiKey) {
    throw new ConfigError('OPENAI_COMPATIBLE_API_KEY: required when OPENAI_COMPATIBLE_API_STYLE=azure (sent as the api-key header)');
  }
  const label = read.string('OPENAI_COMPATIBLE_LABEL', OPENAI_COMPATIBLE_DEFAULT_LABEL);
  if (label.length > 100) throw new ConfigError('OPENAI_COMPATIBLE_LABEL: at most 100 characters');
  const cents = (name: string): number => {
    const value = read.optional(name);
    if (value === undefined) return 0;
    if (!/^\d+(\.\d+)?$/.test(value)) throw new ConfigError(`${name}: expected a number of cents, 0 or more (e.g. 0.05), got "${value}"`);
    return Number(value);
  };
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    apiStyle,
    apiVersion: read.string('OPENAI_COMPATIBLE_API_VERSION', DEFAULT_AZURE_API_VERSION),
    label,
    models,
    inputCentsPer1k: cents('OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_INPUT'),
    outputCentsPer1k: cents('OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_OUTPUT'),
  };
}

function readWebhookSettings(read: Reader): WebhookSettings {
  const allowLoopbackUrls = read.bool('WEBHOOK_ALLOW_LOOPBACK_URLS', false);
  if (allowLoopbackUrls && read.optional('NODE_ENV') === 'production') {
    throw new ConfigError('WEBHOOK_ALLOW_LOOPBACK_URLS: not allowed when NODE_ENV=production (webhooks must not reach this host)');
  }
  const disableAfterSeconds = read.int('WEBHOOK_DISABLE_AFTER_SECONDS', 5 * 24 * 3600, 60);
  return {
    allowLoopbackUrls,
    maxAttempts: read.int('WEBHOOK_MAX_ATTEMPTS', 8, 1, 50),
    backoffMs: read.int('WEBHOOK_BACKOFF_MS', 30000, 1, 3600000),
    timeoutMs: read.int('WEBHOOK_TIMEOUT_MS', 10000, 100, 60000),
    disableAfterSeconds,
    workerConcurrency: read.int('WEBHOOK_WORKER_CONCURRENCY', 2, 1, 64),
    ...readWebhookOperations(read, disableAfterSeconds),
  };
}

/** Endpoint cap, retention, secret rotation and `budget.low` (docs/decisions.md "Webhooks"). */
function readWebhookOperations(read: Reader, disableAfterSeconds: number) {
  const deliveryRetentionDays = read.int('WEBHOOK_DELIVERY_RETENTION_DAYS', 30, 1, 3650);
  // Disabling looks back over the deliveries of that period: pruning them sooner would hide a dead endpoint.
  if (deliveryRetentionDays * 86400 <= disableAfterSeconds) {
    throw new ConfigError(
      `WEBHOOK_DELIVERY_RETENTION_DAYS: must cover more than WEBHOOK_DISABLE_AFTER_SECONDS (${disableAfterSeconds} s), got ${deliveryRetentionDays} days`,
    );
  }
  return {
    maxEndpointsPerAccount: read.int('WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT', 20, 1, 1000),
    deliveryRetentionDays,
    secretRotationGraceSeconds: read.int('WEBHOOK_SECRET_ROTATION_GRACE_SECONDS', 24 * 3600, 0, 30 * 24 * 3600),
    budgetLowThresholdPercent: read.int('BUDGET_LOW_THRESHOLD_PERCENT', 10, 0, 100),
  };
}

/** The bucket settings; an incomplete set stops start-up naming the missing variable. */
function readS3Settings(read: Reader): S3StorageSettings {
  const bucket = read.optional('S3_BUCKET');
  if (!bucket) throw new ConfigError('S3_BUCKET: required when STORAGE_DRIVER=s3');
  // The rules every S3-compatible service accepts (path-style and virtual-hosted alike).
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(`S3_BUCKET: 3 to 63 lowercase letters, digits, dots or hyphens, got "${bucket}"`);
  }
  const production = read.optional('NODE_ENV') === 'production';
  const region = read.optional('S3_REGION') ?? read.optional('AWS_REGION') ?? (production ? undefined : 'us-east-1');
  if (!region) {
    throw new ConfigError('S3_REGION: required when STORAGE_DRIVER=s3 and NODE_ENV=production (or AWS_REGION; MinIO accepts us-east-1)');
  }
  const endpoint = read.url('S3_ENDPOINT', ['http:', 'https:']);
  const accessKeyId = read.optional('S3_ACCESS_KEY_ID');
  const secretAccessKey = read.optional('S3_SECRET_ACCESS_KEY');
  if (accessKeyId && !secretAccessKey) throw new ConfigError('S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID');
  if (secretAccessKey && !accessKeyId) throw new ConfigError('S3_ACCESS_KEY_ID: required with S3_SECRET_ACCESS_KEY');
  const prefix = read.string('S3_KEY_PREFIX', '').replace(/\/+$/, '');
  if (prefix && (!/^[a-z0-9][a-z0-9/_.-]*$/i.test(prefix) || prefix.includes('..') || prefix.includes('//'))) {
    throw new ConfigError(`S3_KEY_PREFIX: letters, digits and / _ . - (no ".." or "//"), got "${prefix}"`);
  }
  return {
    bucket,
    region,
    endpoint,
    // MinIO and most S3-compatible services serve buckets as a path, not as a host name.
    forcePathStyle: read.bool('S3_FORCE_PATH_STYLE', endpoint !== undefined),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    keyPrefix: prefix ? `${prefix}/` : '',
    createBucket: read.bool('S3_CREATE_BUCKET', false),
  };
}
