import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiProduces, ApiResponse, type HeaderObject } from '@nestjs/swagger';

export interface BinaryDownloadDocs {
  /** Every media type the route may send (bare, lower case). */
  mediaTypes: string[];
  /** Those it sends in byte ranges (206) when asked. */
  rangedMediaTypes: string[];
  /** What the 200 is, in the operation's words. */
  description: string;
}

const binary = (mediaTypes: string[]) =>
  Object.fromEntries(mediaTypes.map((mime) => [mime, { schema: { type: 'string', format: 'binary', contentMediaType: mime } }]));

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }): HeaderObject => ({ description, schema });
const always = (object: HeaderObject): HeaderObject => ({ ...object, required: true });

const CONTENT_DISPOSITION = header(
  '`inline` for PDF, image, audio and video, `attachment` otherwise, with the file name as ASCII (`filename`) and UTF-8 (`filename*`, RFC 8187); save the bytes under that name',
  {
    type: 'string',
    example: `inline; filename="regulatory-horizon-eu-uk-2026-11-22.pdf"; filename*=UTF-8''regulatory-horizon-eu-uk-2026-11-22.pdf`,
  },
);
const CONTENT_LENGTH = header('Size of this body in bytes', { type: 'integer', minimum: 0 });
const CACHE_CONTROL = header('`private, max-age=0, must-revalidate`');
const NOSNIFF = header('`nosniff`: the declared Content-Type is the only one to use');
const CSP = header(
  'Only on HTML and SVG/XML documents: a sandboxing Content-Security-Policy (the web slides run scripts in an opaque origin)',
);

/**
 * Documents a raw-bytes download: each media type as `type: string, format: binary` (so Swagger UI offers the file
 * instead of printing it), byte ranges (206, Accept-Ranges, Content-Range) for the ranged types, and the Range header.
 * Its 416 is documented with the operation's problems.
 */
export function ApiBinaryDownload({ mediaTypes, rangedMediaTypes, description }: BinaryDownloadDocs) {
  const ranged = rangedMediaTypes.join(', ');
  return applyDecorators(
    ApiHeader({
      name: 'Range',
      required: false,
      description: `A single byte range, \`bytes=<first>-<last>\`, \`bytes=<first>-\` or \`bytes=-<suffix length>\`; honoured for ${ranged} (206), ignored for other types and for multiple ranges (200). Leave it empty for the whole file.`,
      schema: { type: 'string', pattern: '^bytes=\\d*-\\d*$', maxLength: 200 },
    }),
    ApiProduces(...mediaTypes),
    ApiResponse({
      status: 200,
      description,
      headers: {
        'Content-Disposition': always(CONTENT_DISPOSITION),
        'Content-Length': always(CONTENT_LENGTH),
        'Accept-Ranges': header(`\`bytes\`, on ${ranged} only: they can be fetched in ranges`, { type: 'string', enum: ['bytes'] }),
        'Cache-Control': always(CACHE_CONTROL),
        'X-Content-Type-Options': always(NOSNIFF),
        'Content-Security-Policy': CSP,
      },
      content: binary(mediaTypes),
    }),
    ApiResponse({
      status: 206,
      description: `The requested byte range of a ${ranged} artefact (the Range header named one inside the file)`,
      headers: {
        'Content-Range': always(
          header('The range sent and the full size: `bytes <first>-<last>/<size>`', { type: 'string', example: 'bytes 0-1023/482133' }),
        ),
        'Content-Length': always(CONTENT_LENGTH),
        'Accept-Ranges': always(header('`bytes`', { type: 'string', enum: ['bytes'] })),
        'Content-Disposition': always(CONTENT_DISPOSITION),
        'Cache-Control': always(CACHE_CONTROL),
        'X-Content-Type-Options': always(NOSNIFF),
      },
      content: binary(rangedMediaTypes),
    }),
  );
}
