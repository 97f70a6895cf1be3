import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_CATALOG, type ProblemCode } from '../errors/problem-catalog';
import { ProblemDocumentDto, problemExample } from './problem.schema';

const VALIDATION_EXAMPLE_ERRORS = [{ path: 'name', code: 'required', message: 'name is required' }];

/** Documents problem responses by code; codes sharing a status become examples of one response. */
export function ApiProblems(...codes: ProblemCode[]) {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of ['internal_error', 'transient_error', ...codes] as const) {
    const status = PROBLEM_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const decorators = [...byStatus.entries()].map(([status, statusCodes]) =>
    ApiResponse({
      status,
      description: statusCodes.map((code) => `\`${code}\`: ${PROBLEM_CATALOG[code].description}`).join('\n\n'),
      content: {
        'application/problem+json': {
          schema: { $ref: getSchemaPath(ProblemDocumentDto) },
          examples: Object.fromEntries(
            statusCodes.map((code) => [code, { value: problemExample(code, undefined, code === 'validation_error' ? VALIDATION_EXAMPLE_ERRORS : []) }]),
          ),
        },
      },
    }),
  );
  return applyDecorators(ApiExtraModels(ProblemDocumentDto), ...decorators);
}
