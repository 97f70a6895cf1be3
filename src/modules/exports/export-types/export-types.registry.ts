import { DEFAULT_SLIDE_WEB_STYLE, DEFAULT_STYLE_SLUGS, IMAGE_STYLE_SETS, ImagegenArtifactType, ImagegenProvider, SLIDE_WEB_STYLES, styleSlugs, WITHDRAWN_STYLE_SLUGS } from './image-styles';

/** Closed vocabulary of decision C3; `simple` is a plain English register, not a translation. */
export const EXPORT_TARGET_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'zh', 'ja', 'simple'] as const;
export type ExportTargetLanguage = (typeof EXPORT_TARGET_LANGUAGES)[number];

export const INSTRUCTIONS_MAX_LENGTH = 2000;

export interface OptionSchema {
  type: 'string';
  enum?: readonly string[];
  default?: string;
  description?: string;
  maxLength?: number;
  /** Internal from here on; toPublicExportType strips these. Other accepted names for the option. */
  aliases?: readonly string[];
  /** An out-of-enum value is a 422 `unsupported_locale`, not a field error. */
  localeOption?: true;
  /** Accepted and validated, then dropped from the normalized options. */
  deprecated?: true;
  /** Free text the account may have customisation disabled for (then replaced by account defaults). */
  freeText?: true;
  /** Values that used to be valid; still rejected, with a message saying so. */
  withdrawn?: readonly string[];
}

export type ExportGroup = 'documents' | 'data' | 'slides' | 'visual' | 'audio' | 'video';
export type RequiredIntegration = 'notebook' | 'voicePodcast';

export interface ExportTypeEntry {
  key: string;
  label: string;
  provider: string;
  artifact_type: string;
  group: ExportGroup;
  provider_label: string;
  requires_provider: RequiredIntegration | null;
  options_schema: Readonly<Record<string, OptionSchema>>;
  result: { mime: string; extension: string };
}

const PDF = { mime: 'application/pdf', extension: 'pdf' };
const PNG = { mime: 'image/png', extension: 'png' };
const MP3 = { mime: 'audio/mpeg', extension: 'mp3' };
const MP4 = { mime: 'video/mp4', extension: 'mp4' };

const targetLanguage: OptionSchema = {
  type: 'string',
  enum: EXPORT_TARGET_LANGUAGES,
  description: 'Language of the artefact (simple = plain English); falls back to English when the snapshot has no complete translation.',
  localeOption: true,
};

const editorialModel: OptionSchema = {
  type: 'string',
  enum: ['small', 'medium', 'large'],
  default: 'medium',
  description: 'Deprecated: accepted but ignored.',
  deprecated: true,
};

const instructions: OptionSchema = {
  type: 'string',
  maxLength: INSTRUCTIONS_MAX_LENGTH,
  description: 'Free-text guidance for the notebook; replaced by the account defaults when customisation is disabled.',
  freeText: true,
};

/** PDF report and CSV: also list the matches the item cap left out (issue 12; a documented extension of the spec's "none"). */
const itemList: OptionSchema = {
  type: 'string',
  enum: ['selected', 'all_matched'],
  // No default on purpose: an export that does not ask keeps its options empty, as before the option existed.
  description:
    "Which instruments to list: omitted or `selected`, the scan's selected items; `all_matched`, every instrument that matched the scan's scope (the selected ones, then those the item cap left out). Snapshots written before this option existed hold only the selected items.",
};

function imagegenStyleSlug(provider: ImagegenProvider, artifactType: ImagegenArtifactType): OptionSchema {
  const slugs = styleSlugs(IMAGE_STYLE_SETS[provider][artifactType]);
  return {
    type: 'string',
    enum: slugs,
    default: DEFAULT_STYLE_SLUGS[provider][artifactType],
    description: `Visual style (${slugs.length} styles); styles can be withdrawn over time.`,
    withdrawn: WITHDRAWN_STYLE_SLUGS,
  };
}

function planModel(defaultTier: string): OptionSchema {
  return {
    type: 'string',
    enum: ['medium5', 'medium', 'large', 'large48'],
    default: defaultTier,
    description:
      'Model tier that plans the layout and copy before the image is drawn: a tier of the configured providers, or `medium5`, the medium model of the GPT-5 family (OpenAI).',
  };
}

const modelId: OptionSchema = {
  type: 'string',
  maxLength: 200,
  description: "Voice provider's speech model id; omitted uses the integration's default.",
  aliases: ['model_id'],
};

function pair(
  provider: string,
  artifactType: string,
  fields: Omit<ExportTypeEntry, 'key' | 'provider' | 'artifact_type' | 'requires_provider' | 'options_schema'> & {
    requires_provider?: RequiredIntegration;
    options_schema?: Record<string, OptionSchema>;
  },
): ExportTypeEntry {
  return {
    key: `${provider}:${artifactType}`,
    label: fields.label,
    provider,
    artifact_type: artifactType,
    group: fields.group,
    provider_label: fields.provider_label,
    requires_provider: fields.requires_provider ?? null,
    options_schema: fields.options_schema ?? {},
    result: fields.result,
  };
}

const BUILT_IN_EXPORT_TYPES: readonly ExportTypeEntry[] = [
  pair('internal-pdf', 'pdf', { label: 'PDF report', group: 'documents', provider_label: 'Built-in PDF', options_schema: { list: itemList }, result: PDF }),
  pair('internal-csv', 'csv', {
    label: 'CSV of items',
    group: 'data',
    provider_label: 'Built-in CSV',
    options_schema: { list: itemList },
    result: { mime: 'text/csv; charset=utf-8', extension: 'csv' },
  }),
  pair('internal-briefing-pdf', 'briefing-pdf', {
    label: 'Briefing PDF',
    group: 'documents',
    provider_label: 'Built-in briefing PDF',
    options_schema: { targetLanguage },
    result: PDF,
  }),
  pair('internal-calendar', 'compliance-calendar', {
    label: 'Compliance calendar (one page)',
    group: 'documents',
    provider_label: 'Built-in compliance calendar',
    options_schema: { targetLanguage },
    result: PDF,
  }),
  pair('internal-tearsheet', 'tearsheet', {
    label: 'Tearsheet',
    group: 'documents',
    provider_label: 'Built-in tearsheet',
    options_schema: { targetLanguage, editorialModel },
    result: PDF,
  }),
  pair('internal-pptx', 'slide-deck', {
    label: 'Slide deck (PowerPoint)',
    group: 'slides',
    provider_label: 'Built-in PowerPoint',
    options_schema: {
      theme: { type: 'string', enum: ['light', 'dark'], default: 'dark', description: 'Colour theme of the deck.' },
      targetLanguage,
      editorialModel,
    },
    result: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', extension: 'pptx' },
  }),
  pair('frontend-slides', 'slide-web', {
    label: 'Web slides',
    group: 'slides',
    provider_label: 'Web slides',
    options_schema: {
      styleSlug: { type: 'string', enum: styleSlugs(SLIDE_WEB_STYLES), default: DEFAULT_SLIDE_WEB_STYLE, description: 'Visual style of the slides.' },
      targetLanguage,
    },
    result: { mime: 'text/html; charset=utf-8', extension: 'html' },
  }),
  pair('imagegen-a-infographic', 'tearsheet-detailed', {
    label: 'Detailed tearsheet image',
    group: 'visual',
    provider_label: 'Image generator A',
    options_schema: { styleSlug: imagegenStyleSlug('imagegen-a-infographic', 'tearsheet-detailed'), planModel: planModel('medium'), targetLanguage },
    result: PNG,
  }),
  pair('imagegen-a-infographic', 'infographic-custom', {
    label: 'Custom infographic',
    group: 'visual',
    provider_label: 'Image generator A',
    options_schema: { styleSlug: imagegenStyleSlug('imagegen-a-infographic', 'infographic-custom'), planModel: planModel('large'), targetLanguage },
    result: PNG,
  }),
  pair('imagegen-b-infographic', 'tearsheet-detailed', {
    label: 'Detailed tearsheet image',
    group: 'visual',
    provider_label: 'Image generator B',
    options_schema: { styleSlug: imagegenStyleSlug('imagegen-b-infographic', 'tearsheet-detailed'), targetLanguage },
    result: PNG,
  }),
  pair('imagegen-b-infographic', 'infographic-custom', {
    label: 'Custom infographic',
    group: 'visual',
    provider_label: 'Image generator B',
    options_schema: { styleSlug: imagegenStyleSlug('imagegen-b-infographic', 'infographic-custom'), targetLanguage },
    result: PNG,
  }),
  pair('notebook', 'infographic', {
    label: 'Notebook infographic',
    group: 'visual',
    provider_label: 'Notebook',
    requires_provider: 'notebook',
    options_schema: {
      style: {
        type: 'string',
        enum: ['PROFESSIONAL', 'EDITORIAL', 'SCIENTIFIC', 'SKETCH_NOTE', 'BENTO_GRID', 'BRICKS', 'CLAY', 'INSTRUCTIONAL', 'KAWAII', 'ANIME'],
        default: 'PROFESSIONAL',
        description: 'Visual style of the infographic.',
      },
      detail_level: { type: 'string', enum: ['CONCISE', 'STANDARD', 'DETAILED'], default: 'STANDARD', description: 'How much detail the infographic carries.' },
      orientation: { type: 'string', enum: ['LANDSCAPE', 'PORTRAIT', 'SQUARE'], default: 'LANDSCAPE', description: 'Aspect of the image.' },
      instructions,
      targetLanguage,
    },
    result: PNG,
  }),
  pair('notebook', 'slide-detailed', {
    label: 'Notebook slide deck',
    group: 'slides',
    provider_label: 'Notebook',
    requires_provider: 'notebook',
    options_schema: {
      slide_length: { type: 'string', enum: ['SHORT', 'DEFAULT'], default: 'DEFAULT', description: 'Length of the deck.' },
      instructions,
      targetLanguage,
    },
    result: PDF,
  }),
  pair('notebook', 'audio', {
    label: 'Notebook audio overview',
    group: 'audio',
    provider_label: 'Notebook',
    requires_provider: 'notebook',
    options_schema: {
      audio_format: {
        type: 'string',
        enum: ['DEBATE', 'DEEP_DIVE', 'BRIEF', 'CRITIQUE'],
        default: 'DEEP_DIVE',
        description: 'Format of the audio overview; DEBATE is produced in English only.',
      },
      audio_length: { type: 'string', enum: ['SHORT', 'DEFAULT', 'LONG'], default: 'DEFAULT', description: 'Length of the audio overview.' },
      instructions,
      targetLanguage,
    },
    result: MP3,
  }),
  pair('notebook', 'video-explainer', {
    label: 'Notebook explainer video',
    group: 'video',
    provider_label: 'Notebook',
    requires_provider: 'notebook',
    options_schema: { instructions, targetLanguage },
    result: MP4,
  }),
  pair('notebook', 'video', {
    label: 'Notebook video',
    group: 'video',
    provider_label: 'Notebook',
    requires_provider: 'notebook',
    options_schema: {
      video_format: { type: 'string', enum: ['CINEMATIC'], default: 'CINEMATIC', description: 'Format of the video.' },
      instructions,
      targetLanguage,
    },
    result: MP4,
  }),
  pair('voice-briefing', 'podcast-briefing', {
    label: 'Briefing podcast',
    group: 'audio',
    provider_label: 'Voice briefing',
    requires_provider: 'voicePodcast',
    options_schema: {
      voiceId: { type: 'string', maxLength: 200, description: "Voice provider's voice id for the narrator; omitted uses the integration's default." },
      modelId,
      targetLanguage,
    },
    result: MP3,
  }),
  pair('voice-discussion', 'podcast-discussion', {
    label: 'Discussion podcast',
    group: 'audio',
    provider_label: 'Voice discussion',
    requires_provider: 'voicePodcast',
    options_schema: { modelId, targetLanguage },
    result: MP3,
  }),
];

const registered: ExportTypeEntry[] = [...BUILT_IN_EXPORT_TYPES];

/** Every export type, built in or added with addExportType: discovery, validation and the worker all read this. */
export const EXPORT_TYPES: readonly ExportTypeEntry[] = registered;

const BY_KEY = new Map(EXPORT_TYPES.map((entry) => [entry.key, entry]));

/**
 * Adds an export type to the registry. Use `registerExportType` (src/modules/exports/register-export-type.ts),
 * which also registers its renderer; see docs/extending.md.
 */
export function addExportType(entry: ExportTypeEntry): void {
  if (entry.key !== `${entry.provider}:${entry.artifact_type}`) throw new Error(`export type key ${entry.key} must be provider:artifact_type`);
  if (BY_KEY.has(entry.key)) throw new Error(`export type ${entry.key} is already registered`);
  registered.push(entry);
  BY_KEY.set(entry.key, entry);
}

export function findExportType(provider: string, artifactType: string): ExportTypeEntry | undefined {
  return BY_KEY.get(`${provider}:${artifactType}`);
}

export function isExportProvider(provider: string): boolean {
  return EXPORT_TYPES.some((entry) => entry.provider === provider);
}

export function exportTypeKeys(): string[] {
  return EXPORT_TYPES.map((entry) => entry.key);
}

export interface PublicOptionSchema {
  type: 'string';
  enum?: string[];
  default?: string;
  description?: string;
  maxLength?: number;
}

export interface PublicExportType {
  key: string;
  label: string;
  provider: string;
  artifact_type: string;
  group: ExportGroup;
  provider_label: string;
  requires_provider: RequiredIntegration | null;
  has_options: boolean;
  options_schema: Record<string, PublicOptionSchema>;
}

function toPublicOption(option: OptionSchema): PublicOptionSchema {
  const out: PublicOptionSchema = { type: option.type };
  if (option.enum) out.enum = [...option.enum];
  if (option.default !== undefined) out.default = option.default;
  if (option.description !== undefined) out.description = option.description;
  if (option.maxLength !== undefined) out.maxLength = option.maxLength;
  return out;
}

/** An entry of GET /v1/meta/export-types. */
export function toPublicExportType(entry: ExportTypeEntry): PublicExportType {
  const options = Object.entries(entry.options_schema);
  return {
    key: entry.key,
    label: entry.label,
    provider: entry.provider,
    artifact_type: entry.artifact_type,
    group: entry.group,
    provider_label: entry.provider_label,
    requires_provider: entry.requires_provider,
    has_options: options.length > 0,
    options_schema: Object.fromEntries(options.map(([name, option]) => [name, toPublicOption(option)])),
  };
}

export function listPublicExportTypes(): PublicExportType[] {
  return EXPORT_TYPES.map(toPublicExportType);
}
