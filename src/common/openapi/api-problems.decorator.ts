import { applyDecorators } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ApiExtraModels, DECORATORS, getSchemaPath, type HeaderObject, type ReferenceObject } from '@nestjs/swagger';
import { PROBLEM_CATALOG, type ProblemCode } from '../errors/problem-catalog';
import { ProblemDocumentDto, problemExample, type FieldErrorDto } from './problem.schema';

/** One way an operation fails: a named example of its problem response. */
export interface ProblemExample {
  code: ProblemCode;
  /** The example's name; defaults to `code`. Variants of one code (a field-level code of `validation_error`) need their own. */
  name?: string;
  /** Why this operation answers it; also the line of the response description. Defaults to the catalogue's text. */
  summary?: string;
  /** The example's `detail`; defaults to `summary`. */
  detail?: string;
  errors?: FieldErrorDto[];
  /** Headers this problem carries (Retry-After, Content-Range). */
  headers?: Record<string, HeaderObject | ReferenceObject>;
}

interface StoredProblem {
  code: ProblemCode;
  name: string;
  summary: string;
  detail: string;
  errors: FieldErrorDto[];
  headers: Record<string, HeaderObject | ReferenceObject>;
  /**
   * Written from a bare code: an entry with its own summary for the same name replaces it. Otherwise the first entry
   * of a name stays, and method decorators run before class ones, so an operation's own wording wins.
   */
  generic: boolean;
}

const PROBLEMS_METADATA = 'rgs:openapi:problems';
const CODE_ORDER = Object.keys(PROBLEM_CATALOG);

/** Every route can answer these (a body the API cannot use, an unexpected error). */
const EVERY_ROUTE: ProblemExample[] = [
  {
    code: 'invalid_request',
    summary:
      'The request carries a body the API cannot use: not `application/json` (POST and DELETE), or JSON nested deeper than 32 levels.',
    detail: 'Request bodies must be JSON: send Content-Type: application/json',
  },
  { code: 'internal_error', summary: 'An unexpected error; retry with backoff and quote the request id.', detail: 'Internal server error' },
];

/** For routes that read Postgres or Redis (every authenticated one: keys, sessions and rate limits live there). */
export const BACKING_SERVICE_DOWN: ProblemExample = {
  code: 'transient_error',
  summary: 'Postgres or Redis does not answer; retry with backoff.',
  detail: 'A backing service is temporarily unavailable; retry with backoff',
};

/**
 * Documents problem responses by example: one named example per way the operation fails, grouped by status into one
 * `application/problem+json` response whose description lists them. Unlike @ApiResponse, which replaces a status's
 * content, every use adds to what earlier ones documented: the auth, rate-limit and idempotency decorators and the
 * operation's own list all end up in one response per status. On a class it documents every route of the class.
 * Every route also gets `invalid_request` and `internal_error`.
 */
export function ApiProblems(...problems: Array<ProblemCode | ProblemExample>) {
  const incoming = [...EVERY_ROUTE.map((problem) => stored(problem, true)), ...problems.map((problem) => stored(problem))];
  const document = (handler: object) => {
    const entries = new Map<string, StoredProblem>(Reflect.getMetadata(PROBLEMS_METADATA, handler) ?? []);
    for (const problem of incoming) {
      const existing = entries.get(problem.name);
      if (!existing || (existing.generic && !problem.generic)) entries.set(problem.name, problem);
    }
    Reflect.defineMetadata(PROBLEMS_METADATA, [...entries], handler);
    const responses = Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {};
    Reflect.defineMetadata(DECORATORS.API_RESPONSE, { ...responses, ...problemResponses([...entries.values()]) }, handler);
  };
  const decorator = (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) document(descriptor.value as object);
    else for (const handler of routeHandlers(target as { prototype: object })) document(handler);
  };
  return applyDecorators(ApiExtraModels(ProblemDocumentDto), decorator);
}

function stored(problem: ProblemCode | ProblemExample, generic = false): StoredProblem {
  const entry = typeof problem === 'string' ? { code: problem } : problem;
  const summary = entry.summary ?? PROBLEM_CATALOG[entry.code].description;
  return {
    code: entry.code,
    name: entry.name ?? entry.code,
    summary,
    detail: entry.detail ?? summary,
    errors: entry.errors ?? [],
    headers: entry.headers ?? {},
    generic: generic || typeof problem === 'string' || entry.summary === undefined,
  };
}

/** Route handlers of a controller class (class decorators run after its methods were decorated). */
function routeHandlers(controller: { prototype: object }): object[] {
  return Object.getOwnPropertyNames(controller.prototype)
    .map((name) => Object.getOwnPropertyDescriptor(controller.prototype, name)?.value as unknown)
    .filter((value): value is object => typeof value === 'function' && Reflect.getMetadata(PATH_METADATA, value) !== undefined);
}

function problemResponses(entries: StoredProblem[]): Record<number, object> {
  const byStatus = new Map<number, StoredProblem[]>();
  for (const entry of entries) {
    const status = PROBLEM_CATALOG[entry.code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), entry]);
  }
  const responses: Record<number, object> = {};
  for (const [status, unordered] of byStatus) {
    const list = unordered.sort(
      (a, b) =>
        CODE_ORDER.indexOf(a.code) - CODE_ORDER.indexOf(b.code) ||
        Number(b.name === b.code) - Number(a.name === a.code) ||
        a.name.localeCompare(b.name),
    );
    const lines = list.map((entry) => `${label(entry)}: ${entry.summary}`);
    const headers = Object.assign({}, ...list.map((entry) => entry.headers)) as Record<string, HeaderObject | ReferenceObject>;
    responses[status] = {
      description: lines.length === 1 ? lines[0] : lines.map((line) => `- ${line}`).join('\n'),
      ...(Object.keys(headers).length ? { headers } : {}),
      content: {
        'application/problem+json': {
          schema: { $ref: getSchemaPath(ProblemDocumentDto) },
          examples: Object.fromEntries(
            list.map((entry) => [entry.name, { summary: label(entry), value: problemExample(entry.code, entry.detail, entry.errors) }]),
          ),
        },
      },
    };
  }
  return responses;
}

function label(entry: StoredProblem): string {
  if (entry.name === entry.code) return `\`${entry.code}\``;
  const fieldCode = entry.errors.find((error) => error.code === entry.name);
  return fieldCode ? `\`${entry.code}\` with field code \`${entry.name}\`` : `\`${entry.code}\` (${entry.name.replace(/_/g, ' ')})`;
}
