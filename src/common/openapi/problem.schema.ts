import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROBLEM_CATALOG, problemSlug, type ProblemCode } from '../errors/problem-catalog';

export class FieldErrorDto {
  @ApiProperty({
    example: 'jurisdictions[3]',
    description:
      'Where the problem is: a body field (`options.styleSlug`, `areas[2]`), a query parameter, or empty for the body as a whole',
  })
  path: string;

  @ApiProperty({
    example: 'too_long',
    description:
      'Field-level code: required, missing, invalid, invalid_range, incompatible, engine_deprecated, small_model_blocked_on_verifier, unknown, unknown_option, invalid_value, invalid_type, too_long',
  })
  code: string;

  @ApiProperty({ example: 'jurisdictions[3] must be at most 100 characters' })
  message: string;
}

export class ProblemDocumentDto {
  @ApiProperty({
    format: 'uri',
    example: 'http://localhost:3000/problems/not-found',
    description: '`{BASE_URL}/problems/<slug>`: a page explaining the code',
  })
  type: string;

  @ApiProperty({ example: 'Not found' })
  title: string;

  @ApiProperty({ type: 'integer', example: 404, description: 'The HTTP status, repeated' })
  status: number;

  @ApiProperty({
    example: 'Scan 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f not found',
    description: 'What went wrong in this request; do not parse it',
  })
  detail: string;

  @ApiProperty({ example: '/v1/scans/5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f', description: 'The request path' })
  instance: string;

  @ApiProperty({ enum: Object.keys(PROBLEM_CATALOG), example: 'not_found', description: 'Branch on this, not on `detail`' })
  code: string;

  @ApiProperty({ pattern: '^req_[0-9A-Za-z]{24}$', example: 'req_3Zx8Qk1vN0aB7cD2eF4gH6jK', description: 'Equals the X-Request-Id header' })
  request_id: string;

  @ApiProperty({
    type: [FieldErrorDto],
    maxItems: 50,
    description:
      'Field errors of a `validation_error` (empty otherwise). At most 50 entries; `errors_total` says how many there were when more were found.',
  })
  errors: FieldErrorDto[];

  @ApiPropertyOptional({ type: 'integer', example: 500000, description: 'Present only when `errors` was cut to its first 50 entries.' })
  errors_total?: number;
}

/** Problem examples are static: the request id is a fixed sample and `instance` is the operation's path (set by the document builder). */
export const EXAMPLE_REQUEST_ID = 'req_3Zx8Qk1vN0aB7cD2eF4gH6jK';

export function problemExample(code: ProblemCode, detail?: string, errors: FieldErrorDto[] = []) {
  const entry = PROBLEM_CATALOG[code];
  return {
    type: `http://localhost:3000/problems/${problemSlug(code)}`,
    title: entry.title,
    status: entry.status,
    detail: detail ?? entry.description,
    instance: '/v1/…',
    code,
    request_id: EXAMPLE_REQUEST_ID,
    errors,
  };
}
