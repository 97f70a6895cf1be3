/** The paid providers a deployment configures with an API key. */
export const VENDOR_KEYS = ['anthropic', 'openai', 'gemini', 'deepl', 'cohere', 'perplexity'] as const;
export type VendorKey = (typeof VENDOR_KEYS)[number];

/** Who serves a model: a vendor, or the built-in offline engine. */
export const PROVIDER_KEYS = [...VENDOR_KEYS, 'openai-compatible', 'offline'] as const;
export type ProviderKey = (typeof PROVIDER_KEYS)[number];

/** The credential variables by name (`ANTHROPIC_API_KEY` ...), as model resolution reads them. */
export function vendorCredentials(apiKeyOf: (vendor: VendorKey) => string | undefined): Record<string, string | undefined> {
  return Object.fromEntries(VENDOR_KEYS.map((key) => [`${key.toUpperCase()}_API_KEY`, apiKeyOf(key)]));
}

export const MODEL_ROLES = ['analyst', 'seeker', 'auditor', 'writer', 'translator', 'search'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

export const MODEL_TIERS = ['large', 'large48', 'medium', 'small'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

/**
 * Order in which a tier shorthand looks for a configured provider before falling back to offline. A self-hosted
 * endpoint comes first: an operator who sets one up wants the tiers it maps served there (docs/decisions.md
 * "Self-hosted models").
 */
export const TIER_PROVIDER_PREFERENCE: readonly ProviderKey[] = ['openai-compatible', 'anthropic', 'openai', 'gemini', 'cohere', 'perplexity'];

export interface ModelVariant {
  id: string;
  label: string;
  model_id: string;
}

export interface CatalogueModel {
  /** Our stable id, accepted by `model` / `searchModel`. */
  id: string;
  label: string;
  role: ModelRole;
  /** null for models that are not tiered LLMs (machine translation, rerank). */
  tier: ModelTier | null;
  /** The vendor's own model id, sent on the wire. */
  model_id: string;
  pro_variant?: ModelVariant;
}

export interface ModelProvider {
  provider: ProviderKey;
  label: string;
  /** Environment variable holding the API key; null when no key is needed. */
  envKey: string | null;
  models: readonly CatalogueModel[];
}

const OFFLINE_MODEL_ID = 'offline-calendar-v1';

export const MODEL_PROVIDERS: readonly ModelProvider[] = [
  {
    provider: 'anthropic',
    label: 'Anthropic',
    envKey: 'ANTHROPIC_API_KEY',
    models: [
      { id: 'anthropic-large', label: 'Claude Opus 4.1', role: 'analyst', tier: 'large', model_id: 'claude-opus-4-1-20250805' },
      { id: 'anthropic-large48', label: 'Claude Opus 4.5', role: 'analyst', tier: 'large48', model_id: 'claude-opus-4-5-20251101' },
      { id: 'anthropic-medium', label: 'Claude Sonnet 4.5', role: 'analyst', tier: 'medium', model_id: 'claude-sonnet-4-5-20250929' },
      { id: 'anthropic-small', label: 'Claude Haiku 4.5', role: 'analyst', tier: 'small', model_id: 'claude-haiku-4-5-20251001' },
      { id: 'anthropic-seeker', label: 'Claude Haiku 4.5 (search)', role: 'seeker', tier: 'small', model_id: 'claude-haiku-4-5-20251001' },
      { id: 'anthropic-auditor', label: 'Claude Sonnet 4.5 (auditor)', role: 'auditor', tier: 'medium', model_id: 'claude-sonnet-4-5-20250929' },
      { id: 'anthropic-writer', label: 'Claude Sonnet 4.5 (writer)', role: 'writer', tier: 'medium', model_id: 'claude-sonnet-4-5-20250929' },
    ],
  },
  {
    provider: 'openai',
    label: 'OpenAI',
    envKey: 'OPENAI_API_KEY',
    models: [
      {
        id: 'openai-large',
        label: 'GPT-5',
        role: 'analyst',
        tier: 'large',
        model_id: 'gpt-5-2025-08-07',
        pro_variant: { id: 'openai-large-pro', label: 'GPT-5 pro', model_id: 'gpt-5-pro-2025-10-06' },
      },
      { id: 'openai-large48', label: 'GPT-5.1', role: 'analyst', tier: 'large48', model_id: 'gpt-5.1-2025-11-13' },
      { id: 'openai-medium', label: 'GPT-5 mini', role: 'analyst', tier: 'medium', model_id: 'gpt-5-mini-2025-08-07' },
      { id: 'openai-small', label: 'GPT-5 nano', role: 'analyst', tier: 'small', model_id: 'gpt-5-nano-2025-08-07' },
      { id: 'openai-auditor', label: 'GPT-5 mini (auditor)', role: 'auditor', tier: 'medium', model_id: 'gpt-5-mini-2025-08-07' },
      { id: 'openai-writer', label: 'GPT-5.1 (writer)', role: 'writer', tier: 'large48', model_id: 'gpt-5.1-2025-11-13' },
    ],
  },
  {
    provider: 'gemini',
    label: 'Google Gemini',
    envKey: 'GEMINI_API_KEY',
    models: [
      { id: 'gemini-large', label: 'Gemini 2.5 Pro', role: 'analyst', tier: 'large', model_id: 'gemini-2.5-pro' },
      { id: 'gemini-large48', label: 'Gemini 3 Pro (preview)', role: 'analyst', tier: 'large48', model_id: 'gemini-3-pro-preview' },
      { id: 'gemini-medium', label: 'Gemini 2.5 Flash', role: 'analyst', tier: 'medium', model_id: 'gemini-2.5-flash' },
      { id: 'gemini-small', label: 'Gemini 2.5 Flash-Lite', role: 'analyst', tier: 'small', model_id: 'gemini-2.5-flash-lite' },
      { id: 'gemini-seeker', label: 'Gemini 2.5 Flash (Search grounding)', role: 'seeker', tier: 'medium', model_id: 'gemini-2.5-flash' },
    ],
  },
  {
    provider: 'deepl',
    label: 'DeepL',
    envKey: 'DEEPL_API_KEY',
    models: [
      { id: 'deepl-translate', label: 'DeepL Translate (quality optimised)', role: 'translator', tier: null, model_id: 'quality_optimized' },
      { id: 'deepl-translate-fast', label: 'DeepL Translate (latency optimised)', role: 'translator', tier: null, model_id: 'latency_optimized' },
    ],
  },
  {
    provider: 'cohere',
    label: 'Cohere',
    envKey: 'COHERE_API_KEY',
    models: [
      { id: 'cohere-large', label: 'Command A Reasoning', role: 'analyst', tier: 'large', model_id: 'command-a-reasoning-08-2025' },
      { id: 'cohere-small', label: 'Command R7B', role: 'analyst', tier: 'small', model_id: 'command-r7b-12-2024' },
      { id: 'cohere-writer', label: 'Command A', role: 'writer', tier: 'large', model_id: 'command-a-03-2025' },
      { id: 'cohere-translator', label: 'Command A Translate', role: 'translator', tier: null, model_id: 'command-a-translate-08-2025' },
      { id: 'cohere-rerank', label: 'Rerank 3.5', role: 'search', tier: null, model_id: 'rerank-v3.5' },
    ],
  },
  {
    provider: 'perplexity',
    label: 'Perplexity',
    envKey: 'PERPLEXITY_API_KEY',
    models: [
      {
        id: 'perplexity-sonar',
        label: 'Sonar',
        role: 'seeker',
        tier: 'small',
        model_id: 'sonar',
        pro_variant: { id: 'perplexity-sonar-pro', label: 'Sonar Pro', model_id: 'sonar-pro' },
      },
      { id: 'perplexity-deep-research', label: 'Sonar Deep Research', role: 'seeker', tier: 'large', model_id: 'sonar-deep-research' },
      { id: 'perplexity-large', label: 'Sonar Reasoning Pro', role: 'analyst', tier: 'large', model_id: 'sonar-reasoning-pro' },
    ],
  },
  {
    provider: 'offline',
    label: 'Offline (regulatory calendar)',
    envKey: null,
    models: [
      { id: 'offline-large', label: 'Offline calendar analyst (large)', role: 'analyst', tier: 'large', model_id: OFFLINE_MODEL_ID },
      { id: 'offline-large48', label: 'Offline calendar analyst (large48)', role: 'analyst', tier: 'large48', model_id: OFFLINE_MODEL_ID },
      { id: 'offline-medium', label: 'Offline calendar analyst (medium)', role: 'analyst', tier: 'medium', model_id: OFFLINE_MODEL_ID },
      { id: 'offline-small', label: 'Offline calendar analyst (small)', role: 'analyst', tier: 'small', model_id: OFFLINE_MODEL_ID },
      // Offline "translation" only produces the plain-English register from the calendar's summaries.
      { id: 'offline-translator', label: 'Offline plain-English register', role: 'translator', tier: null, model_id: OFFLINE_MODEL_ID },
    ],
  },
];

export type ModelPrice =
  | { unit: 'tokens'; inputCentsPer1k: number; outputCentsPer1k: number; requestCents?: number }
  | { unit: 'characters'; centsPer1kCharacters: number }
  | { unit: 'requests'; centsPerRequest: number }
  | { unit: 'phase'; centsPerPhase: number };

const OFFLINE_PHASE_PRICE: ModelPrice = { unit: 'phase', centsPerPhase: 2 };

/** Keyed by our model id (pro variants included); list prices in US cents. */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'anthropic-large': { unit: 'tokens', inputCentsPer1k: 1.5, outputCentsPer1k: 7.5 },
  'anthropic-large48': { unit: 'tokens', inputCentsPer1k: 0.5, outputCentsPer1k: 2.5 },
  'anthropic-medium': { unit: 'tokens', inputCentsPer1k: 0.3, outputCentsPer1k: 1.5 },
  'anthropic-small': { unit: 'tokens', inputCentsPer1k: 0.1, outputCentsPer1k: 0.5 },
  'anthropic-seeker': { unit: 'tokens', inputCentsPer1k: 0.1, outputCentsPer1k: 0.5 },
  'anthropic-auditor': { unit: 'tokens', inputCentsPer1k: 0.3, outputCentsPer1k: 1.5 },
  'anthropic-writer': { unit: 'tokens', inputCentsPer1k: 0.3, outputCentsPer1k: 1.5 },
  'openai-large': { unit: 'tokens', inputCentsPer1k: 0.125, outputCentsPer1k: 1 },
  'openai-large-pro': { unit: 'tokens', inputCentsPer1k: 1.5, outputCentsPer1k: 12 },
  'openai-large48': { unit: 'tokens', inputCentsPer1k: 0.125, outputCentsPer1k: 1 },
  'openai-medium': { unit: 'tokens', inputCentsPer1k: 0.025, outputCentsPer1k: 0.2 },
  'openai-small': { unit: 'tokens', inputCentsPer1k: 0.005, outputCentsPer1k: 0.04 },
  'openai-auditor': { unit: 'tokens', inputCentsPer1k: 0.025, outputCentsPer1k: 0.2 },
  'openai-writer': { unit: 'tokens', inputCentsPer1k: 0.125, outputCentsPer1k: 1 },
  'gemini-large': { unit: 'tokens', inputCentsPer1k: 0.125, outputCentsPer1k: 1 },
  'gemini-large48': { unit: 'tokens', inputCentsPer1k: 0.2, outputCentsPer1k: 1.2 },
  'gemini-medium': { unit: 'tokens', inputCentsPer1k: 0.03, outputCentsPer1k: 0.25 },
  'gemini-small': { unit: 'tokens', inputCentsPer1k: 0.01, outputCentsPer1k: 0.04 },
  'gemini-seeker': { unit: 'tokens', inputCentsPer1k: 0.03, outputCentsPer1k: 0.25, requestCents: 3.5 },
  'deepl-translate': { unit: 'characters', centsPer1kCharacters: 2.5 },
  'deepl-translate-fast': { unit: 'characters', centsPer1kCharacters: 2.5 },
  'cohere-large': { unit: 'tokens', inputCentsPer1k: 0.25, outputCentsPer1k: 1 },
  'cohere-small': { unit: 'tokens', inputCentsPer1k: 0.00375, outputCentsPer1k: 0.015 },
  'cohere-writer': { unit: 'tokens', inputCentsPer1k: 0.25, outputCentsPer1k: 1 },
  'cohere-translator': { unit: 'tokens', inputCentsPer1k: 0.25, outputCentsPer1k: 1 },
  'cohere-rerank': { unit: 'requests', centsPerRequest: 0.2 },
  'perplexity-sonar': { unit: 'tokens', inputCentsPer1k: 0.1, outputCentsPer1k: 0.1, requestCents: 0.5 },
  'perplexity-sonar-pro': { unit: 'tokens', inputCentsPer1k: 0.3, outputCentsPer1k: 1.5, requestCents: 0.6 },
  'perplexity-deep-research': { unit: 'tokens', inputCentsPer1k: 0.2, outputCentsPer1k: 0.8, requestCents: 0.5 },
  'perplexity-large': { unit: 'tokens', inputCentsPer1k: 0.2, outputCentsPer1k: 0.8, requestCents: 0.6 },
  'offline-large': OFFLINE_PHASE_PRICE,
  'offline-large48': OFFLINE_PHASE_PRICE,
  'offline-medium': OFFLINE_PHASE_PRICE,
  'offline-small': OFFLINE_PHASE_PRICE,
  'offline-translator': OFFLINE_PHASE_PRICE,
};

export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
  characters?: number;
  requests?: number;
  phases?: number;
}

/** The list price of a catalogue model; a self-hosted one is priced by the deployment's settings in `env`. */
export function modelPrice(modelId: string, env: Env = {}): ModelPrice | undefined {
  if (Object.hasOwn(MODEL_PRICES, modelId)) return MODEL_PRICES[modelId];
  return compatibleTierOf(modelId) ? compatiblePrice(env) : undefined;
}

/** Unrounded: the ledger keeps fractional cents and rounds only for display. */
export function costCents(modelId: string, usage: ModelUsage, env: Env = {}): number {
  const price = modelPrice(modelId, env);
  if (!price) throw new Error(`No price for model ${modelId}`);
  return priceCents(price, usage);
}

/** What `usage` costs at `price`, unrounded. */
export function priceCents(price: ModelPrice, usage: ModelUsage): number {
  switch (price.unit) {
    case 'tokens':
      return (
        ((usage.inputTokens ?? 0) / 1000) * price.inputCentsPer1k +
        ((usage.outputTokens ?? 0) / 1000) * price.outputCentsPer1k +
        (usage.requests ?? 0) * (price.requestCents ?? 0)
      );
    case 'characters':
      return ((usage.characters ?? 0) / 1000) * price.centsPer1kCharacters;
    case 'requests':
      return (usage.requests ?? 0) * price.centsPerRequest;
    case 'phase':
      return (usage.phases ?? 0) * price.centsPerPhase;
  }
}

/**
 * Image models of the image exports (imagegen-a: OpenAI, imagegen-b: Gemini). Not scan models, so they stay out
 * of the catalogue and of MODEL_PRICES (whose keys are exactly the catalogue's ids).
 */
export const IMAGE_MODELS = {
  openai: { id: 'openai-image', label: 'GPT Image 1', model_id: 'gpt-image-1' },
  gemini: { id: 'gemini-image', label: 'Gemini 2.5 Flash Image', model_id: 'gemini-2.5-flash-image' },
} as const;

/**
 * List prices of the image models in US cents, by token: gpt-image-1 $5 / 1M text input tokens and $40 / 1M image
 * output tokens (a high-quality 1024x1536 page is 6,240 tokens, about 25 cents); gemini-2.5-flash-image $0.30 / 1M
 * input and $30 / 1M output tokens (1,290 tokens an image, about 3.9 cents).
 */
export const IMAGE_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'openai-image': { unit: 'tokens', inputCentsPer1k: 0.5, outputCentsPer1k: 4 },
  'gemini-image': { unit: 'tokens', inputCentsPer1k: 0.03, outputCentsPer1k: 3 },
};

export type Env = Record<string, string | undefined>;

/** The catalogue of a deployment: the fixed vendors, its self-hosted endpoint when it has one, offline last. */
function providersOf(env: Env): readonly ModelProvider[] {
  if (!hasValue(env, COMPATIBLE_ENV.baseUrl)) return MODEL_PROVIDERS;
  const offline = MODEL_PROVIDERS.filter((entry) => entry.provider === 'offline');
  return [...MODEL_PROVIDERS.filter((entry) => entry.provider !== 'offline'), compatibleProvider(env), ...offline];
}

export function findProvider(provider: string, env: Env = {}): ModelProvider | undefined {
  return providersOf(env).find((entry) => entry.provider === provider);
}

/** What an operator sets to configure `provider`, for error messages. */
export function configurationHint(provider: ProviderKey): string {
  if (provider === OPENAI_COMPATIBLE) return `set ${COMPATIBLE_ENV.baseUrl} and map the tier in ${COMPATIBLE_ENV.models}`;
  return `set ${provider.toUpperCase()}_API_KEY`;
}

export function isConfigured(provider: string, env: Env): boolean {
  const entry = findProvider(provider, env);
  if (!entry) return false;
  if (entry.envKey === null) return true;
  return (env[entry.envKey] ?? '').trim() !== '';
}

export interface PublicModel {
  id: string;
  label: string;
  role: ModelRole;
  tier: ModelTier | null;
  model_id: string;
  pro_variant?: ModelVariant;
}

export interface PublicModelProvider {
  provider: ProviderKey;
  label: string;
  configured: boolean;
  models: PublicModel[];
}

/** `data` of GET /v1/meta/models. */
export function listModelProviders(env: Env): PublicModelProvider[] {
  return providersOf(env).map((entry) => ({
    provider: entry.provider,
    label: entry.label,
    configured: isConfigured(entry.provider, env),
    models: entry.models.map(({ id, label, role, tier, model_id, pro_variant }) => ({
      id,
      label,
      role,
      tier,
      model_id,
      ...(pro_variant ? { pro_variant: { ...pro_variant } } : {}),
    })),
  }));
}

export function isModelTier(value: string): value is ModelTier {
  return (MODEL_TIERS as readonly string[]).includes(value);
}

export interface ResolvedModel {
  provider: ProviderKey;
  /** A pro variant resolves to a model carrying the variant's id, label and model_id. */
  model: CatalogueModel;
  configured: boolean;
}

function findModelById(id: string, env: Env): { provider: ModelProvider; model: CatalogueModel } | undefined {
  for (const provider of providersOf(env)) {
    for (const model of provider.models) {
      if (model.id === id) return { provider, model };
      if (model.pro_variant?.id === id) {
        const { pro_variant, ...base } = model;
        return { provider, model: { ...base, ...pro_variant } };
      }
    }
  }
  return undefined;
}

function analystOfTier(provider: ModelProvider, tier: ModelTier): CatalogueModel | undefined {
  return provider.models.find((model) => model.role === 'analyst' && model.tier === tier);
}

export function resolveModel(idOrTier: string, env: Env): ResolvedModel | null {
  if (isModelTier(idOrTier)) {
    for (const key of TIER_PROVIDER_PREFERENCE) {
      const provider = findProvider(key, env);
      if (!provider || !isConfigured(key, env)) continue;
      const model = analystOfTier(provider, idOrTier);
      if (model) return { provider: key, model, configured: true };
    }
    const offline = findProvider('offline');
    const model = offline && analystOfTier(offline, idOrTier);
    return model ? { provider: 'offline', model, configured: true } : null;
  }
  const found = findModelById(idOrTier, env);
  if (found) return { provider: found.provider.provider, model: found.model, configured: isConfigured(found.provider.provider, env) };
  // A self-hosted id whose tier this deployment does not map: known (a scan fails at run time, as for any unconfigured provider).
  const tier = compatibleTierOf(idOrTier);
  return tier ? { provider: OPENAI_COMPATIBLE, model: compatibleModel(tier, ''), configured: false } : null;
}

export function isKnownModel(idOrTier: string): boolean {
  return isModelTier(idOrTier) || findModelById(idOrTier, {}) !== undefined || compatibleTierOf(idOrTier) !== undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Self-hosted models behind an OpenAI-compatible endpoint (vLLM, Ollama, LM Studio, Azure OpenAI; docs/decisions.md
// "Self-hosted models"). The one dynamic part of the catalogue: its models are whatever the deployment maps to our
// tiers. It is read from the same kind of `env` record as the vendors' keys, by variable name.

export const OPENAI_COMPATIBLE = 'openai-compatible' satisfies ProviderKey;
export const OPENAI_COMPATIBLE_DEFAULT_LABEL = 'Self-hosted (OpenAI-compatible)';

export const COMPATIBLE_ENV = {
  baseUrl: 'OPENAI_COMPATIBLE_BASE_URL',
  models: 'OPENAI_COMPATIBLE_MODELS',
  label: 'OPENAI_COMPATIBLE_LABEL',
  inputCentsPer1k: 'OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_INPUT',
  outputCentsPer1k: 'OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_OUTPUT',
} as const;

/** Our tier -> the model name the endpoint serves (Azure: the deployment name). */
export type CompatibleModelMap = Partial<Record<ModelTier, string>>;

/** What the catalogue needs of a deployment's self-hosted settings (AppConfig['openaiCompatible']). */
export interface CompatibleCatalogueSettings {
  baseUrl: string;
  label: string;
  models: CompatibleModelMap;
  inputCentsPer1k: number;
  outputCentsPer1k: number;
}

/**
 * `large=llama-3.3-70b-instruct,small=llama3.1:8b`: comma-separated `<tier>=<model>`, split at the first `=` (model
 * names may hold `:`, `/` and `=`). Throws an Error whose message names the bad entry.
 */
export function parseCompatibleModelMap(text: string): CompatibleModelMap {
  const map: CompatibleModelMap = {};
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error(`map at least one tier (${MODEL_TIERS.join(', ')}), e.g. large=llama-3.3-70b-instruct`);
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    const tier = entry.slice(0, equals).trim();
    const model = entry.slice(equals + 1).trim();
    if (equals < 0 || !tier || !model) throw new Error(`"${entry}" is not <tier>=<model>, e.g. large=llama-3.3-70b-instruct`);
    if (!isModelTier(tier)) throw new Error(`"${tier}" is not a tier (${MODEL_TIERS.join(', ')})`);
    if (map[tier] !== undefined) throw new Error(`${tier} is mapped twice`);
    map[tier] = model;
  }
  return map;
}

/** The `env` entries of a deployment's self-hosted settings, to merge into vendorCredentials(). */
export function compatibleCatalogueEnv(settings: CompatibleCatalogueSettings | undefined): Env {
  if (!settings) return {};
  return {
    [COMPATIBLE_ENV.baseUrl]: settings.baseUrl,
    [COMPATIBLE_ENV.models]: Object.entries(settings.models)
      .map(([tier, model]) => `${tier}=${model}`)
      .join(','),
    [COMPATIBLE_ENV.label]: settings.label,
    [COMPATIBLE_ENV.inputCentsPer1k]: String(settings.inputCentsPer1k),
    [COMPATIBLE_ENV.outputCentsPer1k]: String(settings.outputCentsPer1k),
  };
}

function hasValue(env: Env, name: string): boolean {
  return (env[name] ?? '').trim() !== '';
}

function compatibleTierOf(id: string): ModelTier | undefined {
  const prefix = `${OPENAI_COMPATIBLE}-`;
  const tier = id.startsWith(prefix) ? id.slice(prefix.length) : '';
  return isModelTier(tier) ? tier : undefined;
}

function compatibleModel(tier: ModelTier, model: string): CatalogueModel {
  return { id: `${OPENAI_COMPATIBLE}-${tier}`, label: `${model || 'unmapped'} (${tier})`, role: 'analyst', tier, model_id: model };
}

/** Start-up validation rejects a bad map; here one is read as mapping nothing. */
function compatibleModelMap(env: Env): CompatibleModelMap {
  try {
    return parseCompatibleModelMap(env[COMPATIBLE_ENV.models] ?? '');
  } catch {
    return {};
  }
}

function compatibleProvider(env: Env): ModelProvider {
  const map = compatibleModelMap(env);
  return {
    provider: OPENAI_COMPATIBLE,
    label: env[COMPATIBLE_ENV.label]?.trim() || OPENAI_COMPATIBLE_DEFAULT_LABEL,
    envKey: COMPATIBLE_ENV.baseUrl,
    models: MODEL_TIERS.flatMap((tier) => (map[tier] ? [compatibleModel(tier, map[tier])] : [])),
  };
}

/** Self-hosted models have no list price: the operator's own per-token figures, 0 when unset. */
function compatiblePrice(env: Env): ModelPrice {
  const cents = (name: string) => {
    const value = Number(env[name] ?? '');
    return Number.isFinite(value) && value >= 0 ? value : 0;
  };
  return { unit: 'tokens', inputCentsPer1k: cents(COMPATIBLE_ENV.inputCentsPer1k), outputCentsPer1k: cents(COMPATIBLE_ENV.outputCentsPer1k) };
}
