import { configurationHint, costCents, isConfigured, isKnownModel, listModelProviders, MODEL_PRICES, MODEL_PROVIDERS, MODEL_ROLES, MODEL_TIERS, modelPrice, parseCompatibleModelMap, resolveModel } from './models';

const allModelIds = MODEL_PROVIDERS.flatMap((provider) =>
  provider.models.flatMap((model) => [model.id, ...(model.pro_variant ? [model.pro_variant.id] : [])]),
);

describe('model catalogue', () => {
  it('groups models under the six provider keys plus offline', () => {
    expect(MODEL_PROVIDERS.map((provider) => provider.provider)).toEqual(['anthropic', 'openai', 'gemini', 'deepl', 'cohere', 'perplexity', 'offline']);
    expect(MODEL_PROVIDERS.find((provider) => provider.provider === 'anthropic')?.envKey).toBe('ANTHROPIC_API_KEY');
    expect(MODEL_PROVIDERS.find((provider) => provider.provider === 'offline')?.envKey).toBeNull();
  });

  it('uses unique ids, known roles and tiers, and a price for every model and pro variant', () => {
    expect(new Set(allModelIds).size).toBe(allModelIds.length);
    for (const provider of MODEL_PROVIDERS) {
      for (const model of provider.models) {
        expect(MODEL_ROLES).toContain(model.role);
        if (model.tier !== null) expect(MODEL_TIERS).toContain(model.tier);
        expect(model.model_id).toBeTruthy();
      }
    }
    expect(Object.keys(MODEL_PRICES).sort()).toEqual([...allModelIds].sort());
  });

  it('has one offline analyst per tier on offline-calendar-v1', () => {
    const offline = MODEL_PROVIDERS.find((provider) => provider.provider === 'offline')!;
    const analysts = offline.models.filter((model) => model.role === 'analyst');
    expect(analysts.map((model) => model.id)).toEqual(['offline-large', 'offline-large48', 'offline-medium', 'offline-small']);
    expect(new Set(analysts.map((model) => model.model_id))).toEqual(new Set(['offline-calendar-v1']));
  });

  it('gives deepl a translator without a tier and perplexity a seeker', () => {
    const deepl = MODEL_PROVIDERS.find((provider) => provider.provider === 'deepl')!;
    expect(deepl.models[0]).toMatchObject({ id: 'deepl-translate', role: 'translator', tier: null, model_id: 'quality_optimized' });
    const perplexity = MODEL_PROVIDERS.find((provider) => provider.provider === 'perplexity')!;
    expect(perplexity.models.some((model) => model.role === 'seeker' && model.model_id === 'sonar')).toBe(true);
  });
});

describe('isConfigured', () => {
  it('needs a non-blank API key, except for offline', () => {
    expect(isConfigured('anthropic', {})).toBe(false);
    expect(isConfigured('anthropic', { ANTHROPIC_API_KEY: '  ' })).toBe(false);
    expect(isConfigured('anthropic', { ANTHROPIC_API_KEY: 'sk-test' })).toBe(true);
    expect(isConfigured('offline', {})).toBe(true);
    expect(isConfigured('nope', { NOPE_API_KEY: 'x' })).toBe(false);
  });
});

describe('listModelProviders', () => {
  it('returns the GET /v1/meta/models grouping with configured flags', () => {
    const data = listModelProviders({ OPENAI_API_KEY: 'sk' });
    expect(data.map((entry) => [entry.provider, entry.configured])).toEqual([
      ['anthropic', false],
      ['openai', true],
      ['gemini', false],
      ['deepl', false],
      ['cohere', false],
      ['perplexity', false],
      ['offline', true],
    ]);
    const openai = data.find((entry) => entry.provider === 'openai')!;
    expect(Object.keys(openai).sort()).toEqual(['configured', 'label', 'models', 'provider']);
    expect(openai.models[0]).toEqual({
      id: 'openai-large',
      label: 'GPT-5',
      role: 'analyst',
      tier: 'large',
      model_id: 'gpt-5-2025-08-07',
      pro_variant: { id: 'openai-large-pro', label: 'GPT-5 pro', model_id: 'gpt-5-pro-2025-10-06' },
    });
  });

  it('omits pro_variant when a model has none and does not leak envKey', () => {
    const anthropic = listModelProviders({}).find((entry) => entry.provider === 'anthropic')!;
    expect(anthropic.models[0]).not.toHaveProperty('pro_variant');
    expect(anthropic).not.toHaveProperty('envKey');
  });
});

describe('resolveModel', () => {
  it('resolves a tier to the first configured provider in preference order', () => {
    expect(resolveModel('large', { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' })).toMatchObject({ provider: 'anthropic', model: { id: 'anthropic-large' }, configured: true });
    expect(resolveModel('medium', { GEMINI_API_KEY: 'g', OPENAI_API_KEY: 'o' })?.model.id).toBe('openai-medium');
    expect(resolveModel('small', { GEMINI_API_KEY: 'g' })?.model.id).toBe('gemini-small');
  });

  it('skips configured providers without an analyst of that tier', () => {
    expect(resolveModel('medium', { COHERE_API_KEY: 'c', PERPLEXITY_API_KEY: 'p' })?.model.id).toBe('offline-medium');
    expect(resolveModel('large', { PERPLEXITY_API_KEY: 'p' })?.model.id).toBe('perplexity-large');
    expect(resolveModel('large', { DEEPL_API_KEY: 'd' })?.model.id).toBe('offline-large');
  });

  it('falls back to the offline model of the tier when nothing is configured', () => {
    for (const tier of MODEL_TIERS) {
      expect(resolveModel(tier, {})).toMatchObject({ provider: 'offline', model: { id: `offline-${tier}`, model_id: 'offline-calendar-v1' } });
    }
  });

  it('resolves catalogue ids whether or not their provider is configured', () => {
    expect(resolveModel('anthropic-medium', {})).toMatchObject({ provider: 'anthropic', configured: false, model: { model_id: 'claude-sonnet-4-5-20250929' } });
    expect(resolveModel('deepl-translate', { DEEPL_API_KEY: 'd' })).toMatchObject({ provider: 'deepl', configured: true });
  });

  it('resolves a pro variant id to a model carrying the variant', () => {
    const resolved = resolveModel('openai-large-pro', { OPENAI_API_KEY: 'o' });
    expect(resolved?.provider).toBe('openai');
    expect(resolved?.model).toEqual({ id: 'openai-large-pro', label: 'GPT-5 pro', role: 'analyst', tier: 'large', model_id: 'gpt-5-pro-2025-10-06' });
  });

  it('returns null for unknown ids', () => {
    expect(resolveModel('gpt-4', {})).toBeNull();
    expect(resolveModel('LARGE', {})).toBeNull();
  });
});

describe('isKnownModel', () => {
  it('accepts tiers, catalogue ids and pro variants only', () => {
    expect(isKnownModel('large48')).toBe(true);
    expect(isKnownModel('offline-small')).toBe(true);
    expect(isKnownModel('perplexity-sonar-pro')).toBe(true);
    expect(isKnownModel('medium5')).toBe(false);
    expect(isKnownModel('claude-opus-4-1-20250805')).toBe(false);
  });
});

describe('costCents', () => {
  it('prices tokens, characters, requests and offline phases', () => {
    expect(costCents('anthropic-medium', { inputTokens: 10_000, outputTokens: 2_000 })).toBeCloseTo(3 + 3);
    expect(costCents('perplexity-sonar', { inputTokens: 1000, outputTokens: 1000, requests: 2 })).toBeCloseTo(0.2 + 1);
    expect(costCents('deepl-translate', { characters: 4000 })).toBeCloseTo(10);
    expect(costCents('cohere-rerank', { requests: 5 })).toBeCloseTo(1);
    expect(costCents('offline-large', { phases: 8 })).toBe(16);
    expect(costCents('offline-large', {})).toBe(0);
  });

  it('throws for a model without a price', () => {
    expect(() => costCents('nope', {})).toThrow('nope');
  });
});

describe('self-hosted models (openai-compatible)', () => {
  const SELF_HOSTED = {
    OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
    OPENAI_COMPATIBLE_MODELS: 'large=llama-3.3-70b-instruct,small=llama3.1:8b',
  };

  it('parses the model map, entry by entry, and names the bad entry', () => {
    expect(parseCompatibleModelMap(' large = llama-3.3-70b-instruct , medium=qwen2.5-32b,small=llama3.1:8b ')).toEqual({
      large: 'llama-3.3-70b-instruct',
      medium: 'qwen2.5-32b',
      small: 'llama3.1:8b',
    });
    expect(parseCompatibleModelMap('large48=org/model=v2')).toEqual({ large48: 'org/model=v2' });
    expect(() => parseCompatibleModelMap('')).toThrow(/at least one/);
    expect(() => parseCompatibleModelMap('llama-3.3-70b')).toThrow(/"llama-3.3-70b" is not <tier>=<model>/);
    expect(() => parseCompatibleModelMap('huge=llama')).toThrow(/"huge" is not a tier \(large, large48, medium, small\)/);
    expect(() => parseCompatibleModelMap('small=')).toThrow(/"small=" is not <tier>=<model>/);
    expect(() => parseCompatibleModelMap('small=a,small=b')).toThrow(/small is mapped twice/);
  });

  it('lists the provider after the hosted vendors only when its base URL is set, with only the mapped tiers', () => {
    expect(listModelProviders({ OPENAI_COMPATIBLE_MODELS: 'large=x' }).map((entry) => entry.provider)).not.toContain('openai-compatible');
    expect(listModelProviders(SELF_HOSTED).map((entry) => entry.provider)).toEqual([
      'anthropic', 'openai', 'gemini', 'deepl', 'cohere', 'perplexity', 'openai-compatible', 'offline',
    ]);
    expect(listModelProviders(SELF_HOSTED).find((entry) => entry.provider === 'openai-compatible')?.label).toBe('Self-hosted (OpenAI-compatible)');
    const listed = listModelProviders({ ...SELF_HOSTED, OPENAI_COMPATIBLE_LABEL: 'On-prem vLLM' }).find((entry) => entry.provider === 'openai-compatible');
    expect(listed).toEqual({
      provider: 'openai-compatible',
      label: 'On-prem vLLM',
      configured: true,
      models: [
        { id: 'openai-compatible-large', label: 'llama-3.3-70b-instruct (large)', role: 'analyst', tier: 'large', model_id: 'llama-3.3-70b-instruct' },
        { id: 'openai-compatible-small', label: 'llama3.1:8b (small)', role: 'analyst', tier: 'small', model_id: 'llama3.1:8b' },
      ],
    });
    expect(isConfigured('openai-compatible', SELF_HOSTED)).toBe(true);
    expect(isConfigured('openai-compatible', { OPENAI_COMPATIBLE_MODELS: 'large=x' })).toBe(false);
  });

  it('resolves tiers to the self-hosted model first when it maps the tier, then the hosted vendors, then offline', () => {
    const env = { ...SELF_HOSTED, ANTHROPIC_API_KEY: 'a' };
    expect(resolveModel('large', env)).toMatchObject({ provider: 'openai-compatible', configured: true, model: { id: 'openai-compatible-large', model_id: 'llama-3.3-70b-instruct' } });
    expect(resolveModel('small', SELF_HOSTED)?.model.model_id).toBe('llama3.1:8b');
    expect(resolveModel('medium', env)?.model.id).toBe('anthropic-medium');
    expect(resolveModel('medium', SELF_HOSTED)?.model.id).toBe('offline-medium');
    expect(resolveModel('large', { OPENAI_COMPATIBLE_MODELS: 'large=x' })?.model.id).toBe('offline-large');
  });

  it('resolves our ids to the mapped model, and an unmapped or unconfigured one as not configured', () => {
    expect(resolveModel('openai-compatible-small', SELF_HOSTED)).toMatchObject({
      provider: 'openai-compatible',
      configured: true,
      model: { id: 'openai-compatible-small', tier: 'small', model_id: 'llama3.1:8b' },
    });
    expect(resolveModel('openai-compatible-medium', SELF_HOSTED)).toMatchObject({ provider: 'openai-compatible', configured: false, model: { tier: 'medium' } });
    expect(resolveModel('openai-compatible-small', {})).toMatchObject({ provider: 'openai-compatible', configured: false, model: { tier: 'small' } });
    expect(resolveModel('openai-compatible-huge', SELF_HOSTED)).toBeNull();
    expect(isKnownModel('openai-compatible-large')).toBe(true);
    expect(isKnownModel('openai-compatible-large48')).toBe(true);
    expect(isKnownModel('openai-compatible')).toBe(false);
  });

  it('prices self-hosted tokens at the configured prices, zero when none are set', () => {
    const usage = { inputTokens: 10_000, outputTokens: 2_000 };
    expect(costCents('openai-compatible-large', usage, SELF_HOSTED)).toBe(0);
    const priced = { ...SELF_HOSTED, OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_INPUT: '0.05', OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_OUTPUT: '0.2' };
    expect(costCents('openai-compatible-large', usage, priced)).toBeCloseTo(0.5 + 0.4);
    expect(modelPrice('openai-compatible-small', priced)).toEqual({ unit: 'tokens', inputCentsPer1k: 0.05, outputCentsPer1k: 0.2 });
    expect(modelPrice('anthropic-medium')).toBe(MODEL_PRICES['anthropic-medium']);
    expect(modelPrice('nope', priced)).toBeUndefined();
  });

  it('names what to set when a provider is not configured', () => {
    expect(configurationHint('anthropic')).toBe('set ANTHROPIC_API_KEY');
    expect(configurationHint('openai-compatible')).toBe('set OPENAI_COMPATIBLE_BASE_URL and map the tier in OPENAI_COMPATIBLE_MODELS');
  });
});
