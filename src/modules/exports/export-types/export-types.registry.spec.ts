import { EXPORT_TARGET_LANGUAGES, EXPORT_TYPES, findExportType, listPublicExportTypes, toPublicExportType } from './export-types.registry';

const schemaOf = (key: string) => EXPORT_TYPES.find((entry) => entry.key === key)!.options_schema;

describe('export types registry', () => {
  it('registers the 17 provider/artifact_type pairs of the spec, and the compliance calendar (issue 12)', () => {
    expect(EXPORT_TYPES.map((entry) => entry.key)).toEqual([
      'internal-pdf:pdf',
      'internal-csv:csv',
      'internal-briefing-pdf:briefing-pdf',
      'internal-calendar:compliance-calendar',
      'internal-tearsheet:tearsheet',
      'internal-pptx:slide-deck',
      'frontend-slides:slide-web',
      'imagegen-a-infographic:tearsheet-detailed',
      'imagegen-a-infographic:infographic-custom',
      'imagegen-b-infographic:tearsheet-detailed',
      'imagegen-b-infographic:infographic-custom',
      'notebook:infographic',
      'notebook:slide-detailed',
      'notebook:audio',
      'notebook:video-explainer',
      'notebook:video',
      'voice-briefing:podcast-briefing',
      'voice-discussion:podcast-discussion',
    ]);
    for (const entry of EXPORT_TYPES) expect(entry.key).toBe(`${entry.provider}:${entry.artifact_type}`);
  });

  it('lists the options of each type as the spec table does, plus list on the PDF report and CSV (issue 12)', () => {
    const names = (key: string) => Object.keys(schemaOf(key));
    expect(names('internal-pdf:pdf')).toEqual(['list']);
    expect(names('internal-csv:csv')).toEqual(['list']);
    expect(schemaOf('internal-pdf:pdf').list).toMatchObject({ enum: ['selected', 'all_matched'] });
    expect(schemaOf('internal-pdf:pdf').list).not.toHaveProperty('default');
    expect(names('internal-calendar:compliance-calendar')).toEqual(['targetLanguage']);
    expect(names('internal-briefing-pdf:briefing-pdf')).toEqual(['targetLanguage']);
    expect(names('internal-tearsheet:tearsheet')).toEqual(['targetLanguage', 'editorialModel']);
    expect(names('internal-pptx:slide-deck')).toEqual(['theme', 'targetLanguage', 'editorialModel']);
    expect(names('frontend-slides:slide-web')).toEqual(['styleSlug', 'targetLanguage']);
    expect(names('imagegen-a-infographic:tearsheet-detailed')).toEqual(['styleSlug', 'planModel', 'targetLanguage']);
    expect(names('imagegen-a-infographic:infographic-custom')).toEqual(['styleSlug', 'planModel', 'targetLanguage']);
    expect(names('imagegen-b-infographic:tearsheet-detailed')).toEqual(['styleSlug', 'targetLanguage']);
    expect(names('imagegen-b-infographic:infographic-custom')).toEqual(['styleSlug', 'targetLanguage']);
    expect(names('notebook:infographic')).toEqual(['style', 'detail_level', 'orientation', 'instructions', 'targetLanguage']);
    expect(names('notebook:slide-detailed')).toEqual(['slide_length', 'instructions', 'targetLanguage']);
    expect(names('notebook:audio')).toEqual(['audio_format', 'audio_length', 'instructions', 'targetLanguage']);
    expect(names('notebook:video-explainer')).toEqual(['instructions', 'targetLanguage']);
    expect(names('notebook:video')).toEqual(['video_format', 'instructions', 'targetLanguage']);
    expect(names('voice-briefing:podcast-briefing')).toEqual(['voiceId', 'modelId', 'targetLanguage']);
    expect(names('voice-discussion:podcast-discussion')).toEqual(['modelId', 'targetLanguage']);
  });

  it('pins the enums and defaults the spec names', () => {
    expect(schemaOf('internal-pptx:slide-deck').theme).toMatchObject({ enum: ['light', 'dark'], default: 'dark' });
    expect(schemaOf('internal-tearsheet:tearsheet').editorialModel).toMatchObject({ enum: ['small', 'medium', 'large'], default: 'medium', deprecated: true });
    expect(schemaOf('frontend-slides:slide-web').styleSlug.enum).toEqual(['dark-editorial', 'light-consulting']);
    expect(schemaOf('imagegen-a-infographic:tearsheet-detailed').styleSlug.enum).toHaveLength(12);
    expect(schemaOf('imagegen-a-infographic:infographic-custom').styleSlug.enum).toHaveLength(21);
    expect(schemaOf('imagegen-b-infographic:tearsheet-detailed').styleSlug.enum).toHaveLength(12);
    expect(schemaOf('imagegen-b-infographic:infographic-custom').styleSlug.enum).toHaveLength(21);
    expect(schemaOf('imagegen-a-infographic:tearsheet-detailed').planModel.enum).toEqual(['medium5', 'medium', 'large', 'large48']);
    expect(schemaOf('imagegen-a-infographic:infographic-custom').planModel.default).toBe('large');
    expect(schemaOf('notebook:infographic').style).toMatchObject({
      enum: ['PROFESSIONAL', 'EDITORIAL', 'SCIENTIFIC', 'SKETCH_NOTE', 'BENTO_GRID', 'BRICKS', 'CLAY', 'INSTRUCTIONAL', 'KAWAII', 'ANIME'],
      default: 'PROFESSIONAL',
    });
    expect(schemaOf('notebook:infographic').detail_level.enum).toEqual(['CONCISE', 'STANDARD', 'DETAILED']);
    expect(schemaOf('notebook:infographic').orientation.enum).toEqual(['LANDSCAPE', 'PORTRAIT', 'SQUARE']);
    expect(schemaOf('notebook:slide-detailed').slide_length.enum).toEqual(['SHORT', 'DEFAULT']);
    expect(schemaOf('notebook:audio').audio_format.enum).toEqual(['DEBATE', 'DEEP_DIVE', 'BRIEF', 'CRITIQUE']);
    expect(schemaOf('notebook:audio').audio_length.enum).toEqual(['SHORT', 'DEFAULT', 'LONG']);
    expect(schemaOf('notebook:video').video_format.enum).toEqual(['CINEMATIC']);
    expect(schemaOf('notebook:audio').instructions.maxLength).toBe(2000);
    expect(schemaOf('voice-briefing:podcast-briefing').modelId.aliases).toEqual(['model_id']);
  });

  it('marks targetLanguage as the closed locale enum on every type that has it', () => {
    expect(EXPORT_TARGET_LANGUAGES).toEqual(['en', 'fr', 'de', 'es', 'it', 'zh', 'ja', 'simple']);
    for (const entry of EXPORT_TYPES) {
      const option = entry.options_schema.targetLanguage;
      if (!option) continue;
      expect(option).toMatchObject({ enum: EXPORT_TARGET_LANGUAGES, localeOption: true });
      expect(option.default).toBeUndefined();
    }
  });

  it('gives every option a description and every default a place in its enum', () => {
    for (const entry of EXPORT_TYPES) {
      for (const option of Object.values(entry.options_schema)) {
        expect(option.description).toBeTruthy();
        if (option.default !== undefined && option.enum) expect(option.enum).toContain(option.default);
      }
    }
  });

  it('needs integrations only for notebook and voice types', () => {
    const needs = Object.fromEntries(EXPORT_TYPES.filter((entry) => entry.requires_provider).map((entry) => [entry.key, entry.requires_provider]));
    expect(needs).toEqual({
      'notebook:infographic': 'notebook',
      'notebook:slide-detailed': 'notebook',
      'notebook:audio': 'notebook',
      'notebook:video-explainer': 'notebook',
      'notebook:video': 'notebook',
      'voice-briefing:podcast-briefing': 'voicePodcast',
      'voice-discussion:podcast-discussion': 'voicePodcast',
    });
  });

  it('declares the result mime of each type', () => {
    const mime = (provider: string, artifactType: string) => findExportType(provider, artifactType)?.result.mime;
    expect(mime('internal-pdf', 'pdf')).toBe('application/pdf');
    expect(mime('internal-csv', 'csv')).toBe('text/csv; charset=utf-8');
    expect(mime('internal-pptx', 'slide-deck')).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
    expect(mime('frontend-slides', 'slide-web')).toBe('text/html; charset=utf-8');
    expect(mime('imagegen-b-infographic', 'infographic-custom')).toBe('image/png');
    expect(mime('notebook', 'infographic')).toBe('image/png');
    expect(mime('notebook', 'slide-detailed')).toBe('application/pdf');
    expect(mime('notebook', 'audio')).toBe('audio/mpeg');
    expect(mime('voice-discussion', 'podcast-discussion')).toBe('audio/mpeg');
    expect(mime('notebook', 'video')).toBe('video/mp4');
    expect(findExportType('internal-pdf', 'csv')).toBeUndefined();
  });
});

describe('toPublicExportType', () => {
  it('serves the meta entry shape', () => {
    const entry = toPublicExportType(findExportType('internal-pptx', 'slide-deck')!);
    expect(entry).toEqual({
      key: 'internal-pptx:slide-deck',
      label: 'Slide deck (PowerPoint)',
      provider: 'internal-pptx',
      artifact_type: 'slide-deck',
      group: 'slides',
      provider_label: 'Built-in PowerPoint',
      requires_provider: null,
      has_options: true,
      options_schema: {
        theme: { type: 'string', enum: ['light', 'dark'], default: 'dark', description: 'Colour theme of the deck.' },
        targetLanguage: { type: 'string', enum: ['en', 'fr', 'de', 'es', 'it', 'zh', 'ja', 'simple'], description: expect.any(String) },
        editorialModel: { type: 'string', enum: ['small', 'medium', 'large'], default: 'medium', description: 'Deprecated: accepted but ignored.' },
      },
    });
  });

  it('reports has_options false for types without options', () => {
    expect(toPublicExportType({ ...findExportType('internal-csv', 'csv')!, options_schema: {} })).toMatchObject({ has_options: false, options_schema: {} });
  });

  it('strips internal flags and keeps maxLength', () => {
    const allowed = ['type', 'enum', 'default', 'description', 'maxLength'];
    for (const entry of listPublicExportTypes()) {
      expect(Object.keys(entry).sort()).toEqual(['artifact_type', 'group', 'has_options', 'key', 'label', 'options_schema', 'provider', 'provider_label', 'requires_provider']);
      for (const option of Object.values(entry.options_schema)) {
        for (const field of Object.keys(option)) expect(allowed).toContain(field);
      }
    }
    const voice = toPublicExportType(findExportType('voice-briefing', 'podcast-briefing')!);
    expect(voice.requires_provider).toBe('voicePodcast');
    expect(voice.options_schema.modelId).not.toHaveProperty('aliases');
    expect(toPublicExportType(findExportType('notebook', 'audio')!).options_schema.instructions).toEqual({
      type: 'string',
      maxLength: 2000,
      description: expect.any(String),
    });
  });

  it('returns copies, so callers cannot mutate the registry', () => {
    const entry = toPublicExportType(findExportType('internal-pptx', 'slide-deck')!);
    entry.options_schema.theme.enum!.push('neon');
    expect(findExportType('internal-pptx', 'slide-deck')!.options_schema.theme.enum).toEqual(['light', 'dark']);
  });
});
