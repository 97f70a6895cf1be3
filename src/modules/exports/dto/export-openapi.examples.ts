import type { ProblemExample } from '../../../common/openapi/api-problems.decorator';
import { EXPORT_TYPES } from '../export-types/export-types.registry';
import { allowedResultMediaTypes } from '../export-types/result-media-types';

/**
 * The `snapshot_id` example. No static id can be valid (a snapshot belongs to one account), and a plausible uuid
 * would fail with a confusing 404; this says what to put there, and sent unchanged it is a 422 naming `snapshot_id`.
 * The property therefore declares no `format: uuid` (examples must validate against their schema).
 */
export const SNAPSHOT_ID_PLACEHOLDER = 'REPLACE with snapshot_id from POST /v1/scans';

const exportNotFound = (summary: string): ProblemExample => ({
  code: 'not_found',
  summary,
  detail: 'Export 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f not found',
});
const invalidBody = (name: string, summary: string, path: string, code: string, message: string): ProblemExample => ({
  code: 'validation_error',
  name,
  summary,
  detail: 'The request has invalid fields; see errors',
  errors: [{ path, code, message }],
});

export const CREATE_EXPORT_PROBLEMS: ProblemExample[] = [
  {
    code: 'not_found',
    summary: 'No snapshot with this snapshot_id in your account.',
    detail: 'Snapshot 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f not found',
  },
  invalidBody(
    'validation_error',
    'A field is missing or invalid (snapshot_id not a uuid, an unregistered provider:artifact_type pair, …); `errors[]` lists each.',
    'snapshot_id',
    'invalid',
    'snapshot_id must be a UUID',
  ),
  invalidBody(
    'unknown_option',
    "An option name outside the type's options_schema (the message suggests the closest one).",
    'options.theem',
    'unknown_option',
    "Unknown option 'theem' for internal-pptx:slide-deck. Did you mean 'theme'? Valid options: theme, targetLanguage, editorialModel.",
  ),
  invalidBody(
    'invalid_value',
    'An option value outside its enum (or a withdrawn style).',
    'options.theme',
    'invalid_value',
    "options.theme 'blue' is not allowed. Valid values: light, dark.",
  ),
  invalidBody(
    'incompatible',
    'The type needs an integration (notebook, voicePodcast) this account has not configured.',
    'provider',
    'incompatible',
    'notebook:audio needs the notebook integration, which is not configured on this account.',
  ),
  {
    code: 'unsupported_locale',
    summary: 'options.targetLanguage is outside en, fr, de, es, it, zh, ja, simple.',
    detail: "targetLanguage 'pt' is not supported. Supported values: en, fr, de, es, it, zh, ja, simple.",
  },
];

export const EXPORT_NOT_FOUND = exportNotFound(
  "No export job with this id in your account (another account's jobs, and malformed ids, count as missing).",
);

export const LIST_EXPORTS_PROBLEMS: ProblemExample[] = [
  invalidBody(
    'validation_error',
    'A filter is invalid: `snapshot_id` not a uuid, `status` with an unknown value, `limit` outside 1 to 100.',
    'status',
    'unknown',
    'Unknown status done; use a comma-separated subset of queued, processing, completed, failed, cancelled, undelivered',
  ),
];

export const DOWNLOAD_PROBLEMS: ProblemExample[] = [
  exportNotFound('No export job with this id in your account.'),
  {
    code: 'not_ready',
    summary: 'The job has not completed (queued, processing, failed, cancelled or undelivered); poll GET /v1/exports/{id}.',
    detail: 'Export 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f is processing; download is available once it is completed',
  },
  {
    code: 'gone',
    summary: 'The job completed but its bytes are past retention; create the export again.',
    detail: 'Export 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f completed, but its bytes are no longer retained; create the export again',
  },
  {
    code: 'range_not_satisfiable',
    summary: 'Audio or video only: the Range starts past the end of the file. Content-Range gives the size.',
    detail: 'Range bytes=500000- is outside the 482133-byte resource',
    headers: {
      'Content-Range': {
        required: true,
        description: '`bytes */<size>`: the size of the whole file',
        schema: { type: 'string', example: 'bytes */482133' },
      },
    },
  },
];

/** Every media type a download can have: each registered type's, and octet-stream for a stored type no longer allowed. */
export const DOWNLOAD_MEDIA_TYPES = [
  ...new Set([...EXPORT_TYPES.flatMap((type) => allowedResultMediaTypes(type.provider, type.artifact_type)), 'application/octet-stream']),
].sort();
export const RANGED_MEDIA_TYPES = DOWNLOAD_MEDIA_TYPES.filter((mime) => /^(audio|video)\//.test(mime));
