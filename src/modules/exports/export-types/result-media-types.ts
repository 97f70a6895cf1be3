/**
 * The media types an export may be stored and served as, per provider:artifact_type (docs/decisions.md, Exports; docs/security.md, Content we serve).
 * Built-in renderers produce exactly their registry `result` type. Provider-backed types accept a few encodings of
 * the same kind of artefact, because the provider picks the encoding; nothing a browser would run as a document
 * (HTML, SVG, XML) is on any list, so a provider cannot make a download execute in the API's origin.
 */
import { findExportType } from './export-types.registry';

/** Media type (lower case, no parameters) -> file extension. */
type MediaTypes = Readonly<Record<string, string>>;

const IMAGES: MediaTypes = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
const AUDIO: MediaTypes = {
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/webm': 'weba',
};
const VIDEO: MediaTypes = { 'video/mp4': 'mp4', 'video/webm': 'webm', 'video/quicktime': 'mov' };
const MP3_ONLY: MediaTypes = { 'audio/mpeg': 'mp3' };

const PROVIDER_RESULT_TYPES: Readonly<Record<string, MediaTypes>> = {
  'notebook:infographic': IMAGES,
  'notebook:slide-detailed': {
    'application/pdf': 'pdf',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  },
  'notebook:audio': AUDIO,
  'notebook:video-explainer': VIDEO,
  'notebook:video': VIDEO,
  // We ask for mp3_44100_128 and check the frames.
  'voice-briefing:podcast-briefing': MP3_ONLY,
  'voice-discussion:podcast-discussion': MP3_ONLY,
  // Drawn by the image vendors when configured (their bytes are checked to be one of these), else PNG offline.
  'imagegen-a-infographic:tearsheet-detailed': IMAGES,
  'imagegen-a-infographic:infographic-custom': IMAGES,
  'imagegen-b-infographic:tearsheet-detailed': IMAGES,
  'imagegen-b-infographic:infographic-custom': IMAGES,
};

/** Labels that say nothing about the content: the artifact type's own media type stands in for them. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

/** `Text/HTML; charset=utf-8` -> `text/html`. */
export function bareMediaType(mime: string): string {
  return (mime.split(';')[0] ?? '').trim().toLowerCase();
}

export function isGenericMediaType(mime: string): boolean {
  return GENERIC_TYPES.has(bareMediaType(mime));
}

/** What a type's results may be: its provider's list where it has one, else the registry's own media type. */
function allowed(provider: string, artifactType: string): MediaTypes | undefined {
  const key = `${provider}:${artifactType}`;
  if (Object.hasOwn(PROVIDER_RESULT_TYPES, key)) return PROVIDER_RESULT_TYPES[key];
  const entry = findExportType(provider, artifactType);
  return entry ? { [bareMediaType(entry.result.mime)]: entry.result.extension } : undefined;
}

/** The media types an export of this type may carry (bare, lower case); empty for an unregistered pair. */
export function allowedResultMediaTypes(provider: string, artifactType: string): string[] {
  return Object.keys(allowed(provider, artifactType) ?? {});
}

/** The bare media type and its file extension when the type allows `mime`, else undefined. */
export function acceptedResultMediaType(
  provider: string,
  artifactType: string,
  mime: string,
): { mime: string; extension: string } | undefined {
  const bare = bareMediaType(mime);
  const extension = allowed(provider, artifactType)?.[bare];
  return extension === undefined ? undefined : { mime: bare, extension };
}
