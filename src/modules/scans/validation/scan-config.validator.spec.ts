import type { ScanConfigDefaults } from '../../../domain/scan-config.types';
import { validateEstimateRequest, validateScanConfig } from './scan-config.validator';

const DEFAULTS: ScanConfigDefaults = {
  defaultFetchProvider: 'fetch-a',
  defaultSearchProvider: 'search-a',
  defaultVerifyProvider: 'fetch-b',
  defaultAuditorModel: 'medium',
};

const BASE = { jurisdictions: ['EU'], areas: ['AI'], horizon: 12 };

function validate(extra: Record<string, unknown> = {}, defaults = DEFAULTS) {
  return validateScanConfig({ ...BASE, ...extra }, defaults);
}

function codes(extra: Record<string, unknown>, defaults = DEFAULTS): [string, string][] {
  return validate(extra, defaults).errors.map((error) => [error.path, error.code]);
}

describe('validateScanConfig: a valid body', () => {
  it('resolves every default for a minimal body', () => {
    const result = validate();
    expect(result.errors).toEqual([]);
    expect(result.topLevel).toBeUndefined();
    expect(result.config).toEqual({
      jurisdictions: ['EU'],
      areas: ['AI'],
      horizon: 12,
      engine: 'v4',
      model: null,
      searchModel: null,
      verificationMode: null,
      realist: false,
      auditor: false,
      auditorModel: 'medium',
      fetchProvider: null,
      searchProvider: null,
      verifyProvider: 'fetch-b',
      translationLanguages: [],
    });
  });

  it('trims names and keeps their order, duplicates and vocabulary-free spelling', () => {
    const result = validate({ jurisdictions: ['  EU ', 'Atlantis', 'EU'], areas: ['\tAI safety\n'] });
    expect(result.config?.jurisdictions).toEqual(['EU', 'Atlantis', 'EU']);
    expect(result.config?.areas).toEqual(['AI safety']);
  });

  it('accepts every horizon in the vocabulary, including 12.0 from JSON', () => {
    for (const horizon of [3, 6, 12, 18, 24, 36]) expect(validate({ horizon }).config?.horizon).toBe(horizon);
    expect(validateScanConfig(JSON.parse('{"jurisdictions":["EU"],"areas":["AI"],"horizon":12.0}'), DEFAULTS).config?.horizon).toBe(12);
  });

  it('accepts 20 entries of maximum length', () => {
    const result = validate({ jurisdictions: Array(20).fill('j'.repeat(100)), areas: Array(20).fill('a'.repeat(200)) });
    expect(result.errors).toEqual([]);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(validate({ jurisdictions: ['€'.repeat(100)], areas: ['😀'.repeat(200)] }).errors).toEqual([]);
  });

  it('keeps model and searchModel as requested', () => {
    const result = validate({ model: 'anthropic-large', searchModel: 'small' });
    expect(result.config).toMatchObject({ model: 'anthropic-large', searchModel: 'small' });
    expect(validate({ model: 'openai-large-pro' }).errors).toEqual([]);
  });

  it('treats null on optional fields as omitted', () => {
    const result = validate({ engine: null, model: null, realist: null, fetchProvider: null, translationLanguages: null });
    expect(result.errors).toEqual([]);
    expect(result.config).toMatchObject({ engine: 'v4', model: null, realist: false, fetchProvider: null, translationLanguages: [] });
  });

  it('dedupes translationLanguages, keeping order, without checking the codes', () => {
    expect(validate({ translationLanguages: ['fr', 'de', 'fr', 'xx', 'de'] }).config?.translationLanguages).toEqual(['fr', 'de', 'xx']);
  });
});

describe('validateScanConfig: body shape', () => {
  it('rejects a body that is not a plain object with one error at the root', () => {
    for (const body of [null, undefined, 'x', 42, [], [BASE], new Date()]) {
      const result = validateScanConfig(body, DEFAULTS);
      expect(result.errors).toEqual([{ path: '', code: 'invalid', message: 'The request body must be a JSON object.' }]);
      expect(result.config).toBeUndefined();
    }
  });

  it('accepts an object without a prototype', () => {
    expect(validateScanConfig(Object.assign(Object.create(null), BASE), DEFAULTS).errors).toEqual([]);
  });

  it('reports unknown fields by name, listing the accepted fields', () => {
    const result = validate({ horizn: 12, mode: 'sync' });
    expect(result.errors.map((error) => [error.path, error.code])).toEqual([
      ['horizn', 'unknown'],
      ['mode', 'unknown'],
    ]);
    expect(result.errors[0].message).toContain('jurisdictions, areas, horizon, engine');
    expect(result.config).toBeUndefined();
  });
});

describe('validateScanConfig: jurisdictions and areas', () => {
  it('requires both', () => {
    const result = validateScanConfig({ horizon: 12, areas: null }, DEFAULTS);
    expect(result.errors.map((error) => [error.path, error.code])).toEqual([
      ['jurisdictions', 'required'],
      ['areas', 'required'],
    ]);
  });

  it('rejects non-arrays', () => {
    expect(codes({ jurisdictions: 'EU', areas: { 0: 'AI' } })).toEqual([
      ['jurisdictions', 'invalid'],
      ['areas', 'invalid'],
    ]);
  });

  it('rejects empty lists and lists over 20 entries at the list path', () => {
    expect(codes({ jurisdictions: [], areas: Array(21).fill('AI') })).toEqual([
      ['jurisdictions', 'invalid'],
      ['areas', 'invalid'],
    ]);
    expect(validate({ areas: Array(21).fill('AI') }).errors[0].message).toBe('areas may have at most 20 entries (got 21).');
  });

  it('checks every entry, with its index in the path', () => {
    expect(codes({ jurisdictions: ['EU', 7, '   ', 'j'.repeat(101), null], areas: ['a'.repeat(201), ''] })).toEqual([
      ['jurisdictions[1]', 'invalid'],
      ['jurisdictions[2]', 'invalid'],
      ['jurisdictions[3]', 'too_long'],
      ['jurisdictions[4]', 'invalid'],
      ['areas[0]', 'too_long'],
      ['areas[1]', 'invalid'],
    ]);
  });

  it('reports only the count of an oversized list, never its entries one by one', () => {
    const jurisdictions = [...Array(20).fill('EU'), 'j'.repeat(101)];
    expect(codes({ jurisdictions })).toEqual([['jurisdictions', 'invalid']]);
    expect(codes({ areas: Array(100_000).fill(7) })).toEqual([['areas', 'invalid']]);
  });

  it('refuses NUL and unpaired surrogates, which PostgreSQL cannot store, at the entry', () => {
    expect(codes({ jurisdictions: ['EU\u0000'], areas: ['ok', '\ud800x', 'x\udfff'] })).toEqual([
      ['jurisdictions[0]', 'invalid'],
      ['areas[1]', 'invalid'],
      ['areas[2]', 'invalid'],
    ]);
    expect(codes({ jurisdictions: ['EU 🇪🇺'], areas: ['𝔓ayments'] })).toEqual([]);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(codes({ jurisdictions: ['😀'.repeat(100)] })).toEqual([]);
    expect(codes({ jurisdictions: ['😀'.repeat(101)] })).toEqual([['jurisdictions[0]', 'too_long']]);
  });

  it('measures the length after trimming', () => {
    expect(codes({ jurisdictions: [` ${'j'.repeat(100)} `] })).toEqual([]);
    expect(validate({ jurisdictions: ['j'.repeat(101)] }).errors[0].message).toBe(
      'jurisdictions[0] must be at most 100 characters (got 101).',
    );
  });
});

describe('validateScanConfig: horizon', () => {
  it('is required', () => {
    expect(validateScanConfig({ jurisdictions: ['EU'], areas: ['AI'] }, DEFAULTS).errors).toEqual([
      { path: 'horizon', code: 'required', message: 'horizon is required: one of 3, 6, 12, 18, 24, 36 (months).' },
    ]);
  });

  it('rejects values outside the vocabulary, numeric strings and fractions', () => {
    for (const horizon of [0, 9, 48, -12, 12.5, '12', true, [12]]) {
      expect(codes({ horizon })).toEqual([['horizon', 'invalid']]);
    }
    expect(validate({ horizon: '12' }).errors[0].message).toBe("horizon must be one of 3, 6, 12, 18, 24, 36 (months), not '12'.");
  });
});

describe('validateScanConfig: engine', () => {
  it('accepts every engine, council included (C4)', () => {
    for (const engine of ['v4', 'v4.5-alpha', 'v4.5-beta', 'council']) expect(validate({ engine }).config?.engine).toBe(engine);
  });

  it('flags retired engines as engine_deprecated', () => {
    for (const engine of ['v1', 'v2', 'v3', 'admiral']) expect(codes({ engine })).toEqual([['engine', 'engine_deprecated']]);
    expect(validate({ engine: 'v3' }).errors[0].message).toContain('v3 is retired');
  });

  it('rejects unknown engines and non-strings as invalid', () => {
    for (const engine of ['v5', 'V4', '', 4]) expect(codes({ engine })).toEqual([['engine', 'invalid']]);
  });
});

describe('validateScanConfig: models', () => {
  it('rejects unknown model ids and non-strings', () => {
    expect(codes({ model: 'gpt-4', searchModel: 3 })).toEqual([
      ['model', 'invalid'],
      ['searchModel', 'invalid'],
    ]);
  });

  it('accepts only medium as auditorModel and defaults it (C1)', () => {
    expect(validate({ auditorModel: 'medium' }).config?.auditorModel).toBe('medium');
    for (const auditorModel of ['large', 'anthropic-auditor', 1]) expect(codes({ auditorModel })).toEqual([['auditorModel', 'invalid']]);
    expect(validate().config?.auditorModel).toBe('medium');
  });
});

describe('validateScanConfig: verification flags (rule 1)', () => {
  it('applies verificationMode as a default for unset realist and auditor', () => {
    expect(validate({ engine: 'v4', verificationMode: 'in-analyst' }).config).toMatchObject({
      verificationMode: 'in-analyst',
      realist: true,
      auditor: true,
    });
    expect(validate({ engine: 'v4', verificationMode: 'in-analyst', realist: false }).config).toMatchObject({
      realist: false,
      auditor: true,
    });
  });

  it('rejects an unknown verificationMode and non-boolean flags as invalid', () => {
    expect(codes({ engine: 'v4', verificationMode: 'post-hoc', realist: 'yes', auditor: 1 })).toEqual([
      ['verificationMode', 'invalid'],
      ['realist', 'invalid'],
      ['auditor', 'invalid'],
    ]);
  });

  it('requires an explicit engine: the default one does not count', () => {
    const result = validate({ verificationMode: 'in-analyst', realist: true, auditor: true });
    expect(result.errors.map((error) => [error.path, error.code])).toEqual([
      ['verificationMode', 'incompatible'],
      ['realist', 'incompatible'],
      ['auditor', 'incompatible'],
    ]);
    expect(result.errors[1].message).toContain('explicit engine');
  });

  it('accepts the flags with an explicit v4, v4.5-alpha or v4.5-beta', () => {
    for (const engine of ['v4', 'v4.5-alpha', 'v4.5-beta']) {
      expect(validate({ engine, verificationMode: 'in-analyst', realist: true, auditor: true }).errors).toEqual([]);
    }
  });

  it('rejects the flags on council (C4)', () => {
    expect(codes({ engine: 'council', realist: true })).toEqual([['realist', 'incompatible']]);
    expect(codes({ engine: 'council', verificationMode: 'in-analyst', auditor: true })).toEqual([
      ['verificationMode', 'incompatible'],
      ['auditor', 'incompatible'],
    ]);
  });

  it('always accepts realist:false and auditor:false', () => {
    expect(codes({ realist: false, auditor: false })).toEqual([]);
    expect(codes({ engine: 'council', realist: false, auditor: false })).toEqual([]);
  });

  it('does not judge the flags against a retired or unknown engine', () => {
    expect(codes({ engine: 'v3', realist: true })).toEqual([['engine', 'engine_deprecated']]);
    expect(codes({ engine: 'nope', fetchProvider: 'fetch-a' })).toEqual([['engine', 'invalid']]);
  });
});

describe('validateScanConfig: small model on a verifier-aware config (rule 2)', () => {
  it('blocks small on v4.5-alpha and v4.5-beta', () => {
    for (const engine of ['v4.5-alpha', 'v4.5-beta'])
      expect(codes({ engine, model: 'small' })).toEqual([['model', 'small_model_blocked_on_verifier']]);
  });

  it('blocks small on v4 once realist or auditor is on, including through verificationMode', () => {
    expect(codes({ engine: 'v4', model: 'small', auditor: true })).toEqual([['model', 'small_model_blocked_on_verifier']]);
    expect(codes({ engine: 'v4', model: 'small', verificationMode: 'in-analyst' })).toEqual([['model', 'small_model_blocked_on_verifier']]);
    expect(codes({ engine: 'v4', model: 'small', verificationMode: 'in-analyst', realist: false, auditor: false })).toEqual([]);
    expect(codes({ engine: 'v4', model: 'small' })).toEqual([]);
    expect(codes({ model: 'small' })).toEqual([]);
  });

  it('blocks catalogue models of tier small too, pro variants included', () => {
    for (const model of ['anthropic-small', 'openai-small', 'offline-small', 'perplexity-sonar-pro']) {
      expect(codes({ engine: 'v4.5-alpha', model })).toEqual([['model', 'small_model_blocked_on_verifier']]);
    }
    expect(codes({ engine: 'v4.5-alpha', model: 'anthropic-medium' })).toEqual([]);
  });

  it('leaves searchModel alone', () => {
    expect(codes({ engine: 'v4.5-beta', searchModel: 'small' })).toEqual([]);
  });

  it('reports the rule alongside the missing explicit engine', () => {
    expect(codes({ model: 'small', realist: true })).toEqual([
      ['realist', 'incompatible'],
      ['model', 'small_model_blocked_on_verifier'],
    ]);
  });
});

describe('validateScanConfig: council model (rule 3)', () => {
  it('accepts an omitted model or large', () => {
    expect(validate({ engine: 'council' }).config?.model).toBeNull();
    expect(validate({ engine: 'council', model: 'large' }).config?.model).toBe('large');
  });

  it('answers any other model with the top-level council_model_fixed, not a field error', () => {
    for (const model of ['medium', 'small', 'anthropic-large', 'large48']) {
      const result = validate({ engine: 'council', model });
      expect(result.errors).toEqual([]);
      expect(result.topLevel).toEqual({ code: 'council_model_fixed', detail: expect.stringContaining('omit model or set it to large') });
      expect(result.config).toBeUndefined();
    }
  });

  it('still sets topLevel next to field errors, which win', () => {
    const result = validate({ engine: 'council', model: 'medium', horizon: 5 });
    expect(result.errors.map((error) => error.code)).toEqual(['invalid']);
    expect(result.topLevel?.code).toBe('council_model_fixed');
    expect(result.config).toBeUndefined();
  });

  it('does not apply to other engines', () => {
    expect(validate({ engine: 'v4', model: 'medium' }).topLevel).toBeUndefined();
  });
});

describe('validateScanConfig: providers (C2)', () => {
  it('rejects values outside each vocabulary', () => {
    expect(codes({ engine: 'v4.5-beta', fetchProvider: 'fetch-c', searchProvider: 'google', verifyProvider: 'search-a' })).toEqual([
      ['fetchProvider', 'invalid'],
      ['searchProvider', 'invalid'],
      ['verifyProvider', 'invalid'],
    ]);
  });

  it('allows fetchProvider and searchProvider only on v4.5-beta', () => {
    for (const engine of [undefined, 'v4', 'v4.5-alpha', 'council']) {
      expect(codes({ engine, fetchProvider: 'fetch-b', searchProvider: 'search-b' })).toEqual([
        ['fetchProvider', 'incompatible'],
        ['searchProvider', 'incompatible'],
      ]);
    }
    expect(validate({ engine: 'v4.5-beta', fetchProvider: 'fetch-b', searchProvider: 'search-b' }).config).toMatchObject({
      fetchProvider: 'fetch-b',
      searchProvider: 'search-b',
    });
  });

  it('fills the deployment defaults on v4.5-beta and null elsewhere', () => {
    const defaults: ScanConfigDefaults = { ...DEFAULTS, defaultFetchProvider: 'fetch-b', defaultSearchProvider: 'search-b' };
    expect(validate({ engine: 'v4.5-beta' }, defaults).config).toMatchObject({ fetchProvider: 'fetch-b', searchProvider: 'search-b' });
    expect(validate({ engine: 'v4.5-beta' }).config).toMatchObject({ fetchProvider: 'fetch-a', searchProvider: 'search-a' });
    expect(validate({ engine: 'v4.5-alpha' }, defaults).config).toMatchObject({ fetchProvider: null, searchProvider: null });
  });

  it('accepts verifyProvider on every engine', () => {
    for (const engine of ['v4', 'v4.5-alpha', 'v4.5-beta', 'council']) {
      expect(validate({ engine, verifyProvider: 'fetch-a' }).config?.verifyProvider).toBe('fetch-a');
      expect(validate({ engine, verifyProvider: 'fetch-b' }).config?.verifyProvider).toBe('fetch-b');
    }
  });

  it('defaults verifyProvider to fetch-a when v4.5-beta reads pages through fetch-a, explicitly or by default', () => {
    const fetchBDefaults: ScanConfigDefaults = { ...DEFAULTS, defaultVerifyProvider: 'fetch-b' };
    expect(validate({ engine: 'v4.5-beta', fetchProvider: 'fetch-a' }, fetchBDefaults).config?.verifyProvider).toBe('fetch-a');
    expect(validate({ engine: 'v4.5-beta' }, { ...fetchBDefaults, defaultFetchProvider: 'fetch-a' }).config?.verifyProvider).toBe(
      'fetch-a',
    );
  });

  it('otherwise defaults verifyProvider to the deployment setting', () => {
    expect(validate({ engine: 'v4.5-beta', fetchProvider: 'fetch-b' }).config?.verifyProvider).toBe('fetch-b');
    expect(validate({ engine: 'v4' }).config?.verifyProvider).toBe('fetch-b');
    const fetchADefaults: ScanConfigDefaults = { ...DEFAULTS, defaultVerifyProvider: 'fetch-a' };
    expect(validate({ engine: 'v4.5-beta', fetchProvider: 'fetch-b' }, fetchADefaults).config?.verifyProvider).toBe('fetch-a');
    expect(validate({ engine: 'v4.5-alpha' }, fetchADefaults).config?.verifyProvider).toBe('fetch-a');
  });

  it('keeps an explicit verifyProvider over the fetch-a rule', () => {
    expect(validate({ engine: 'v4.5-beta', fetchProvider: 'fetch-a', verifyProvider: 'fetch-b' }).config?.verifyProvider).toBe('fetch-b');
  });
});

describe('validateScanConfig: translationLanguages', () => {
  it('rejects a non-array and non-string entries at their paths', () => {
    expect(codes({ translationLanguages: 'fr' })).toEqual([['translationLanguages', 'invalid']]);
    expect(codes({ translationLanguages: ['fr', 1, null] })).toEqual([
      ['translationLanguages[1]', 'invalid'],
      ['translationLanguages[2]', 'invalid'],
    ]);
  });

  it('bounds the list and its codes', () => {
    expect(codes({ translationLanguages: Array(20).fill('fr') })).toEqual([]);
    expect(codes({ translationLanguages: Array(100_000).fill(1) })).toEqual([['translationLanguages', 'invalid']]);
    expect(codes({ translationLanguages: ['x'.repeat(35), 'x'.repeat(36), 'fr\u0000'] })).toEqual([
      ['translationLanguages[1]', 'too_long'],
      ['translationLanguages[2]', 'invalid'],
    ]);
  });
});

describe('validateScanConfig and validateEstimateRequest: body size', () => {
  const members = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, i]));

  it('refuses a body of more than 64 members as a whole', () => {
    expect(validateScanConfig({ ...BASE, ...members(10_000) }, DEFAULTS).errors).toEqual([
      { path: '', code: 'invalid', message: 'The request body has 10003 members; it may have at most 64 members.' },
    ]);
    expect(validateEstimateRequest({ ...BASE, ...members(61) }).errors.map((error) => error.code)).toEqual(Array(61).fill('unknown'));
    expect(validateEstimateRequest({ ...BASE, ...members(62) }).errors).toEqual([expect.objectContaining({ path: '', code: 'invalid' })]);
  });
});

describe('validateScanConfig: every error together', () => {
  it('reports all the problems of one body in one pass', () => {
    const result = validateScanConfig(
      {
        jurisdictions: ['EU', ''],
        areas: [],
        horizon: '12',
        engine: 'v4.5-alpha',
        model: 'small',
        searchModel: 'nope',
        realist: 'yes',
        auditorModel: 'large',
        fetchProvider: 'fetch-a',
        verifyProvider: 'fetch-z',
        translationLanguages: [1],
        colour: 'blue',
      },
      DEFAULTS,
    );
    expect(result.errors.map((error) => [error.path, error.code])).toEqual([
      ['colour', 'unknown'],
      ['jurisdictions[1]', 'invalid'],
      ['areas', 'invalid'],
      ['horizon', 'invalid'],
      ['searchModel', 'invalid'],
      ['realist', 'invalid'],
      ['auditorModel', 'invalid'],
      ['verifyProvider', 'invalid'],
      ['translationLanguages[0]', 'invalid'],
      ['fetchProvider', 'incompatible'],
      ['model', 'small_model_blocked_on_verifier'],
    ]);
    for (const error of result.errors) expect(error.message).toMatch(/^\S.*\.$/);
    expect(result.config).toBeUndefined();
  });
});

describe('validateEstimateRequest', () => {
  it('accepts a minimal body, with no horizon and the default engine', () => {
    expect(validateEstimateRequest({ jurisdictions: [' EU '], areas: ['AI'] })).toEqual({
      errors: [],
      request: { jurisdictions: ['EU'], areas: ['AI'], horizon: null, engine: 'v4', providers: {} },
    });
  });

  it('passes on horizon, engine and provider hints', () => {
    const result = validateEstimateRequest({
      jurisdictions: ['EU'],
      areas: ['AI'],
      horizon: 24,
      engine: 'council',
      seekerProvider: 'perplexity',
      analystProvider: 'offline',
      translatorProvider: 'deepl',
    });
    expect(result.request).toEqual({
      jurisdictions: ['EU'],
      areas: ['AI'],
      horizon: 24,
      engine: 'council',
      providers: { seekerProvider: 'perplexity', analystProvider: 'offline', translatorProvider: 'deepl' },
    });
  });

  it('rejects a body that is not an object', () => {
    expect(validateEstimateRequest([]).errors).toEqual([expect.objectContaining({ path: '', code: 'invalid' })]);
  });

  it('requires non-empty jurisdictions and areas with the per-entry rules', () => {
    expect(validateEstimateRequest({}).errors.map((error) => [error.path, error.code])).toEqual([
      ['jurisdictions', 'required'],
      ['areas', 'required'],
    ]);
    expect(
      validateEstimateRequest({ jurisdictions: [], areas: ['a'.repeat(201), 3] }).errors.map((error) => [error.path, error.code]),
    ).toEqual([
      ['jurisdictions', 'invalid'],
      ['areas[0]', 'too_long'],
      ['areas[1]', 'invalid'],
    ]);
  });

  it('takes up to 100 entries per list, answering a longer list with one error', () => {
    expect(validateEstimateRequest({ jurisdictions: Array(100).fill('EU'), areas: ['AI'] }).errors).toEqual([]);
    expect(validateEstimateRequest({ jurisdictions: Array(500_000).fill(0), areas: ['AI'] }).errors).toEqual([
      { path: 'jurisdictions', code: 'invalid', message: 'jurisdictions may have at most 100 entries (got 500000).' },
    ]);
  });

  it('refuses NUL in names, though names are not consulted', () => {
    expect(validateEstimateRequest({ jurisdictions: ['EU\u0000'], areas: ['AI'] }).errors).toEqual([
      expect.objectContaining({ path: 'jurisdictions[0]', code: 'invalid' }),
    ]);
  });

  it('validates horizon only when present', () => {
    expect(validateEstimateRequest({ jurisdictions: ['EU'], areas: ['AI'], horizon: null }).request?.horizon).toBeNull();
    expect(validateEstimateRequest({ jurisdictions: ['EU'], areas: ['AI'], horizon: 7 }).errors).toEqual([
      expect.objectContaining({ path: 'horizon', code: 'invalid' }),
    ]);
  });

  it('applies the engine vocabulary and deprecations', () => {
    expect(validateEstimateRequest({ jurisdictions: ['EU'], areas: ['AI'], engine: 'admiral' }).errors).toEqual([
      expect.objectContaining({ path: 'engine', code: 'engine_deprecated' }),
    ]);
    expect(validateEstimateRequest({ jurisdictions: ['EU'], areas: ['AI'], engine: 'v9' }).errors).toEqual([
      expect.objectContaining({ path: 'engine', code: 'invalid' }),
    ]);
  });

  it('rejects unknown provider keys and unknown fields, all together', () => {
    const result = validateEstimateRequest({
      jurisdictions: ['EU'],
      areas: ['AI'],
      seekerProvider: 'bing',
      analystProvider: 7,
      realist: true,
    });
    expect(result.errors.map((error) => [error.path, error.code])).toEqual([
      ['realist', 'unknown'],
      ['seekerProvider', 'invalid'],
      ['analystProvider', 'invalid'],
    ]);
    expect(result.errors[1].message).toContain('anthropic, openai, gemini, deepl, cohere, perplexity, openai-compatible, offline');
    expect(result.request).toBeUndefined();
  });
});
