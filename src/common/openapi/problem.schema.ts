import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROBLEM_CATALOG, problemSlug, type ProblemCode } from '../errors/problem-catalog';

export class FieldErrorDto {
  @ApiProperty({ example: 'jurisdictions[3]' })
  path: string;

  @ApiProperty({ example: 'too_long' })
  code: string;

  @ApiProperty({ example: 'jurisdictions[3] must be at most 100 characters' })
  message: string;
}

export class ProblemDocumentDto {
  @ApiProperty({ example: 'http://localhost:3000/problems/not-found' })
  type: string;

  @ApiProperty({ example: 'Not found' })
  title: string;

  @ApiProperty({ example: 404 })
  status: number;

  @ApiProperty({ example: 'Resource not found' })
  detail: string;

  @ApiProperty({ example: '/v1/scans/5f0c…' })
  instance: string;

  @ApiProperty({ enum: Object.keys(PROBLEM_CATALOG), example: 'not_found' })
  code: string;

  @ApiProperty({ example: 'req_3Zx8Qk1vN0aB7cD2eF4gH6jK' })
  request_id: string;

  @ApiProperty({
    type: [FieldErrorDto],
    maxItems: 50,
    description: 'At most 50 entries; `errors_total` says how many there were when more were found.',
  })
  errors: FieldErrorDto[];

  @ApiPropertyOptional({ type: 'integer', example: 500000, description: 'Present only when `errors` was cut to its first 50 entries.' })
  errors_total?: number;
}

export function problemExample(code: ProblemCode, detail?: string, errors: FieldErrorDto[] = []) {
  const entry = PROBLEM_CATALOG[code];
  return {
    type: `http://localhost:3000/problems/${problemSlug(code)}`,
    title: entry.title,
    status: entry.status,
    detail: detail ?? entry.description,
    instance: '/v1/…',
    code,
    request_id: 'req_3Zx8Qk1vN0aB7cD2eF4gH6jK',
    errors,
  };
}
