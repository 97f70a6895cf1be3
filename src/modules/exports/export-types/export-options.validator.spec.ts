import { validateExportRequest } from './export-options.validator';

const ALL_INTEGRATIONS = { integrations: new Set(['notebook', 'voicePodcast']) };
const NO_INTEGRATIONS = { integrations: new Set<string>() };

function validate(provider: unknown, artifact_type: unknown, options?: unknown, ctx = ALL_INTEGRATIONS) {
  return validateExportRequest({ provider, artifact_type, options }, ctx);
}

describe('validateExportRequest: provider and artifact_type', () => {
  it('requires both names', () => {
    const result = validate(undefined, null);
    expect(result.errors).toEqual([
      { path: 'provider', code: 'required', message: 'provider is required.' },
      { path: 'artifact_type', code: 'required', message: 'artifact_type is required.' },
    ]);
    expect(result.normalized).toBeUndefined();
    expect(validate('', 'pdf').errors).toEqual([expect.objectContaining({ path: 'provider', code: 'required' })]);
  });

  it('rejects names that are not strings as invalid', () => {
    expect(validate(42, ['pdf']).errors.map((error) => [error.path, error.code])).toEqual([
      ['provider', 'invalid'],
      ['artifact_type', 'invalid'],
    ]);
  });

  it('reports an unknown provider on provider, with a hint and the valid pairs', () => {
    const [error] = validate('notebok', 'audio').errors;
    expect(error).toMatchObject({ path: 'provider', code: 'unknown' });
    expect(error.message).toContain("Did you mean 'notebook'?");
    expect(error.message).toContain('internal-pdf:pdf');
    expect(error.message).toContain('voice-discussion:podcast-discussion');
  });

  it('reports an unknown provider even when artifact_type is missing', () => {
    expect(validate('nope', undefined).errors.map((error) => [error.path, error.code])).toEqual([
      ['provider', 'unknown'],
      ['artifact_type', 'required'],
    ]);
  });

  it('reports an unregistered pair of a known provider on artifact_type', () => {
    const [error] = validate('internal-pdf', 'csv').errors;
    expect(error).toMatchObject({ path: 'artifact_type', code: 'unknown' });
    expect(error.message).toContain("'internal-pdf:csv' is not a registered export type");
    expect(error.message).toContain('internal-csv:csv');
    expect(validate('notebook', 'vidoe').errors[0].message).toContain("Did you mean 'video'?");
  });

  it('accepts a type with only optional, default-less options and gives empty normalized options', () => {
    const result = validate('internal-pdf', 'pdf');
    expect(result.errors).toEqual([]);
    expect(result.localeError).toBeUndefined();
    expect(result.normalized?.type.key).toBe('internal-pdf:pdf');
    expect(result.normalized?.options).toEqual({});
    expect(validate('internal-csv', 'csv', null).normalized?.options).toEqual({});
  });
});

describe('validateExportRequest: options shape', () => {
  it.each([['text'], [5], [true], [['a']]])('rejects options %p as invalid', (options) => {
    expect(validate('internal-pdf', 'pdf', options).errors).toEqual([
      { path: 'options', code: 'invalid', message: 'options must be an object whose values are strings.' },
    ]);
  });

  it('still reports a bad options shape when the pair is unknown', () => {
    expect(validate('nope', 'pdf', 'x').errors.map((error) => [error.path, error.code])).toEqual([
      ['provider', 'unknown'],
      ['options', 'invalid'],
    ]);
  });

  it('rejects unknown option names with a did-you-mean hint and the valid list', () => {
    const [error] = validate('internal-pptx', 'slide-deck', { theem: 'dark' }).errors;
    expect(error).toMatchObject({ path: 'options.theem', code: 'unknown_option' });
    expect(error.message).toContain("Did you mean 'theme'?");
    expect(error.message).toContain('Valid options: theme, targetLanguage, editorialModel.');
  });

  it('hints the canonical spelling of an option with another case or separator', () => {
    expect(validate('notebook', 'infographic', { detailLevel: 'CONCISE' }).errors[0].message).toContain("Did you mean 'detail_level'?");
  });

  it('gives no hint when nothing is close, and lists the valid options', () => {
    const far = validate('internal-pptx', 'slide-deck', { zzz: 'x' }).errors[0];
    expect(far.code).toBe('unknown_option');
    expect(far.message).not.toContain('Did you mean');
    expect(validate('internal-pdf', 'pdf', { theme: 'dark' }).errors[0]).toEqual({
      path: 'options.theme',
      code: 'unknown_option',
      message: "Unknown option 'theme' for internal-pdf:pdf. Valid options: list.",
    });
  });

  it('does not treat Object.prototype names as options', () => {
    const options = JSON.parse('{"__proto__": "x", "constructor": "y"}');
    expect(validate('internal-pdf', 'pdf', options).errors.map((error) => [error.path, error.code])).toEqual([
      ['options.__proto__', 'unknown_option'],
      ['options.constructor', 'unknown_option'],
    ]);
  });

  it.each([[1], [null], [true], [{}], [['dark']]])('rejects the non-string value %p as invalid_type', (value) => {
    expect(validate('internal-pptx', 'slide-deck', { theme: value }).errors).toEqual([
      { path: 'options.theme', code: 'invalid_type', message: 'options.theme must be a string.' },
    ]);
  });
});

describe('validateExportRequest: option values', () => {
  it('rejects an enum miss as invalid_value listing the valid values', () => {
    const [error] = validate('internal-pptx', 'slide-deck', { theme: 'neon' }).errors;
    expect(error).toEqual({
      path: 'options.theme',
      code: 'invalid_value',
      message: "options.theme 'neon' is not allowed. Valid values: light, dark.",
    });
  });

  it('keeps enums case-sensitive but hints the right case', () => {
    const [error] = validate('notebook', 'infographic', { style: 'professional' }).errors;
    expect(error.code).toBe('invalid_value');
    expect(error.message).toContain("Did you mean 'PROFESSIONAL'?");
  });

  it('rejects withdrawn style slugs as invalid_value, saying they were withdrawn', () => {
    const [error] = validate('imagegen-a-infographic', 'infographic-custom', { styleSlug: 'neon-noir' }).errors;
    expect(error).toMatchObject({ path: 'options.styleSlug', code: 'invalid_value' });
    expect(error.message).toContain('has been withdrawn');
    expect(error.message).toContain('timeline-horizon');
  });

  it('rejects a tearsheet-detailed style on infographic-custom only when it is not in that list', () => {
    expect(validate('imagegen-b-infographic', 'tearsheet-detailed', { styleSlug: 'ledger-green' }).errors).toEqual([]);
    expect(validate('imagegen-b-infographic', 'infographic-custom', { styleSlug: 'ledger-green' }).errors[0].code).toBe('invalid_value');
  });

  it('rejects instructions over 2000 characters as too_long, counting characters not code units', () => {
    expect(validate('notebook', 'audio', { instructions: 'x'.repeat(2000) }).errors).toEqual([]);
    expect(validate('notebook', 'audio', { instructions: '😀'.repeat(2000) }).errors).toEqual([]);
    expect(validate('notebook', 'audio', { instructions: 'x'.repeat(2001) }).errors).toEqual([
      { path: 'options.instructions', code: 'too_long', message: 'options.instructions must be at most 2000 characters.' },
    ]);
  });

  it('reports every problem together', () => {
    const result = validate(
      'notebook',
      'infographic',
      { style: 'GOTHIC', orientaton: 'SQUARE', detail_level: 3, instructions: 'x'.repeat(2001), targetLanguage: 'pt' },
      NO_INTEGRATIONS,
    );
    expect(result.errors.map((error) => [error.path, error.code])).toEqual([
      ['provider', 'incompatible'],
      ['options.orientaton', 'unknown_option'],
      ['options.detail_level', 'invalid_type'],
      ['options.style', 'invalid_value'],
      ['options.instructions', 'too_long'],
    ]);
    expect(result.localeError).toContain("'pt'");
    expect(result.normalized).toBeUndefined();
  });
});

describe('validateExportRequest: targetLanguage', () => {
  it.each(['en', 'fr', 'de', 'es', 'it', 'zh', 'ja', 'simple'])('accepts %s', (language) => {
    const result = validate('internal-briefing-pdf', 'briefing-pdf', { targetLanguage: language });
    expect(result.errors).toEqual([]);
    expect(result.normalized?.options).toEqual({ targetLanguage: language });
  });

  it.each(['pt', 'EN', 'en-GB', ''])('turns %p into a localeError, not a field error', (language) => {
    const result = validate('internal-tearsheet', 'tearsheet', { targetLanguage: language });
    expect(result.errors).toEqual([]);
    expect(result.localeError).toBe(`targetLanguage '${language}' is not supported. Supported values: en, fr, de, es, it, zh, ja, simple.`);
    expect(result.normalized).toBeUndefined();
  });

  it('treats a non-string targetLanguage as invalid_type', () => {
    const result = validate('internal-tearsheet', 'tearsheet', { targetLanguage: 7 });
    expect(result.errors).toEqual([expect.objectContaining({ path: 'options.targetLanguage', code: 'invalid_type' })]);
    expect(result.localeError).toBeUndefined();
  });

  it('fills no default language, so an omitted one stays omitted', () => {
    expect(validate('internal-briefing-pdf', 'briefing-pdf', {}).normalized?.options).toEqual({});
  });
});

describe('validateExportRequest: editorialModel', () => {
  it('validates the deprecated option, then drops it', () => {
    expect(validate('internal-pptx', 'slide-deck', { editorialModel: 'large' }).normalized?.options).toEqual({ theme: 'dark' });
    expect(validate('internal-tearsheet', 'tearsheet', { editorialModel: 'small', targetLanguage: 'de' }).normalized?.options).toEqual({
      targetLanguage: 'de',
    });
    expect(validate('internal-tearsheet', 'tearsheet', { editorialModel: 'huge' }).errors).toEqual([
      expect.objectContaining({ path: 'options.editorialModel', code: 'invalid_value' }),
    ]);
  });
});

describe('validateExportRequest: modelId alias', () => {
  it('normalizes model_id to modelId', () => {
    const result = validate('voice-discussion', 'podcast-discussion', { model_id: 'eleven_multilingual_v2' });
    expect(result.errors).toEqual([]);
    expect(result.normalized?.options).toEqual({ modelId: 'eleven_multilingual_v2' });
  });

  it('accepts both names with the same value', () => {
    const result = validate('voice-briefing', 'podcast-briefing', { modelId: 'm1', model_id: 'm1', voiceId: 'v1' });
    expect(result.errors).toEqual([]);
    expect(result.normalized?.options).toEqual({ voiceId: 'v1', modelId: 'm1' });
  });

  it.each([[{ modelId: 'm1', model_id: 'm2' }], [{ model_id: 'm2', modelId: 'm1' }]])(
    'rejects both names with different values as invalid on the alias (%p)',
    (options) => {
      expect(validate('voice-briefing', 'podcast-briefing', options).errors).toEqual([
        {
          path: 'options.model_id',
          code: 'invalid',
          message: 'options.model_id is another name for options.modelId; give one of them, or both with the same value.',
        },
      ]);
    },
  );

  it('reports a non-string alias value as invalid_type on the alias path', () => {
    expect(validate('voice-briefing', 'podcast-briefing', { model_id: 3 }).errors).toEqual([
      expect.objectContaining({ path: 'options.model_id', code: 'invalid_type' }),
    ]);
  });

  it('does not accept the alias on types without modelId', () => {
    const [error] = validate('notebook', 'audio', { model_id: 'm1' }).errors;
    expect(error).toMatchObject({ path: 'options.model_id', code: 'unknown_option' });
  });

  it('hints the canonical name for a near-miss of the alias', () => {
    expect(validate('voice-discussion', 'podcast-discussion', { modelid: 'm' }).errors[0].message).toContain("Did you mean 'modelId'?");
  });
});

describe('validateExportRequest: defaults', () => {
  it.each([
    ['internal-pptx', 'slide-deck', { theme: 'dark' }],
    ['frontend-slides', 'slide-web', { styleSlug: 'dark-editorial' }],
    ['imagegen-a-infographic', 'tearsheet-detailed', { styleSlug: 'swiss-grid', planModel: 'medium' }],
    ['imagegen-a-infographic', 'infographic-custom', { styleSlug: 'timeline-horizon', planModel: 'large' }],
    ['imagegen-b-infographic', 'tearsheet-detailed', { styleSlug: 'boardroom-navy' }],
    ['imagegen-b-infographic', 'infographic-custom', { styleSlug: 'bento-cards' }],
    ['notebook', 'infographic', { style: 'PROFESSIONAL', detail_level: 'STANDARD', orientation: 'LANDSCAPE' }],
    ['notebook', 'slide-detailed', { slide_length: 'DEFAULT' }],
    ['notebook', 'audio', { audio_format: 'DEEP_DIVE', audio_length: 'DEFAULT' }],
    ['notebook', 'video-explainer', {}],
    ['notebook', 'video', { video_format: 'CINEMATIC' }],
    ['voice-briefing', 'podcast-briefing', {}],
  ])('fills the defaults of %s:%s', (provider, artifactType, expected) => {
    const result = validate(provider, artifactType, {});
    expect(result.errors).toEqual([]);
    expect(result.normalized?.options).toEqual(expected);
  });

  it('lets given values override defaults and keeps schema order', () => {
    const result = validate('notebook', 'infographic', { targetLanguage: 'fr', orientation: 'PORTRAIT', instructions: 'Focus on EU.' });
    expect(Object.entries(result.normalized!.options)).toEqual([
      ['style', 'PROFESSIONAL'],
      ['detail_level', 'STANDARD'],
      ['orientation', 'PORTRAIT'],
      ['instructions', 'Focus on EU.'],
      ['targetLanguage', 'fr'],
    ]);
  });
});

describe('validateExportRequest: integrations', () => {
  it.each([
    ['notebook', 'audio', 'notebook'],
    ['notebook', 'video', 'notebook'],
    ['voice-briefing', 'podcast-briefing', 'voicePodcast'],
    ['voice-discussion', 'podcast-discussion', 'voicePodcast'],
  ])('rejects %s:%s without the %s integration as incompatible on provider', (provider, artifactType, integration) => {
    const result = validate(provider, artifactType, {}, NO_INTEGRATIONS);
    expect(result.errors).toEqual([
      {
        path: 'provider',
        code: 'incompatible',
        message: `${provider}:${artifactType} needs the ${integration} integration, which is not configured on this account.`,
      },
    ]);
    expect(result.normalized).toBeUndefined();
  });

  it('checks each integration on its own', () => {
    expect(validate('notebook', 'audio', {}, { integrations: new Set(['voicePodcast']) }).errors[0].code).toBe('incompatible');
    expect(validate('voice-briefing', 'podcast-briefing', {}, { integrations: new Set(['notebook']) }).errors[0].code).toBe('incompatible');
    expect(validate('notebook', 'audio', {}, { integrations: new Set(['notebook']) }).errors).toEqual([]);
  });

  it('does not need an integration for internal or imagegen types', () => {
    expect(validate('internal-pdf', 'pdf', {}, NO_INTEGRATIONS).errors).toEqual([]);
    expect(validate('imagegen-a-infographic', 'tearsheet-detailed', {}, NO_INTEGRATIONS).errors).toEqual([]);
  });
});

describe('validateExportRequest: bounds', () => {
  it('answers more than 20 options with one error for options', () => {
    const options = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`opt${i}`, 'x']));
    expect(validate('internal-pptx', 'slide-deck', options).errors).toEqual([
      { path: 'options', code: 'invalid', message: 'options may have at most 20 members (got 10000).' },
    ]);
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`opt${i}`, 'x']));
    expect(validate('internal-pptx', 'slide-deck', twenty).errors).toHaveLength(20);
  });

  it('answers any option value over 2000 characters as too_long before judging it', () => {
    expect(validate('internal-pptx', 'slide-deck', { theme: 'd'.repeat(100_000), targetLanguage: 'x'.repeat(2001) }).errors).toEqual([
      { path: 'options.theme', code: 'too_long', message: 'options.theme must be at most 2000 characters.' },
      { path: 'options.targetLanguage', code: 'too_long', message: 'options.targetLanguage must be at most 2000 characters.' },
    ]);
  });

  it('refuses NUL and unpaired surrogates in option values', () => {
    expect(validate('notebook', 'audio', { instructions: 'be brief\u0000', audio_format: '\ud800' }).errors).toEqual([
      expect.objectContaining({ path: 'options.instructions', code: 'invalid' }),
      expect.objectContaining({ path: 'options.audio_format', code: 'invalid' }),
    ]);
  });

  it('quotes at most 40 characters of a value back and suggests nothing for long names', () => {
    const started = performance.now();
    const [provider] = validate('p'.repeat(1024 * 1024), 'pdf').errors;
    const [artifact] = validate('internal-pdf', 'a'.repeat(1024 * 1024)).errors;
    const [option] = validate('internal-pptx', 'slide-deck', { [`theme${'e'.repeat(100_000)}`]: 'x' }).errors;
    const [value] = validate('internal-pptx', 'slide-deck', { theme: `dar${'k'.repeat(1000)}` }).errors;
    expect(performance.now() - started).toBeLessThan(200);
    for (const error of [provider, artifact, option, value]) {
      expect(error.message.length).toBeLessThan(1000);
      expect(error.message).not.toMatch(/Did you mean/);
    }
    expect(provider.message).toContain(`'${'p'.repeat(40)}…'`);
  });
});
