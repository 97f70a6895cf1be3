import { isProblemCode, PROBLEM_CATALOG } from '../../src/common/errors/problem-catalog';
import type { Probe } from './fuzz-values';

const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;
/** Node's default --max-http-header-size, less room for the headers supertest adds (Host, Content-Length, …). */
export const NODE_MAX_HEADER_BYTES = 16 * 1024 - 200;

export const headBytes = (probe: Probe) =>
  Buffer.byteLength(`${probe.method} ${probe.path} HTTP/1.1\r\n`) +
  Object.entries(probe.headers).reduce((sum, [name, value]) => sum + Buffer.byteLength(`${name}: ${value}\r\n`, 'latin1'), 0);
const PROBLEM_FIELDS = ['code', 'detail', 'errors', 'instance', 'request_id', 'status', 'title', 'type'];

export interface Reply {
  status: number;
  headers: Record<string, string | undefined>;
  text?: string;
}

/** Why a reply breaks the contract, or undefined when it keeps it. */
export function contractBreach(probe: Probe, reply: Reply): string | undefined {
  if (reply.status >= 500) return `answered ${reply.status}`;
  const type = reply.headers['content-type'] ?? '';
  const requestId = reply.headers['x-request-id'];
  // Node's HTTP server refuses a request line and headers over 16 KB itself, before any of our code runs.
  if (reply.status === 431 && requestId === undefined) return undefined;
  if (reply.status >= 400 && type.startsWith('text/plain') && requestId === undefined) {
    return [400, 413].includes(reply.status) && probe.mayBeUnreadable ? undefined : `plain ${reply.status} for a readable body`;
  }
  if (!requestId || !REQUEST_ID.test(requestId)) return `X-Request-Id ${requestId}`;
  if (reply.status < 400) return undefined;
  if (!/^application\/problem\+json/.test(type)) return `error with content-type ${type}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(reply.text ?? '');
  } catch {
    return 'problem body is not JSON';
  }
  const fields = Object.keys(body)
    .filter((name) => name !== 'errors_total')
    .sort();
  if (fields.join() !== PROBLEM_FIELDS.join()) return `problem fields ${fields.join()}`;
  const { code, status, errors } = body as { code: string; status: number; errors: unknown[] };
  if (status !== reply.status) return `problem status ${status} under HTTP ${reply.status}`;
  if (body.request_id !== requestId) return 'request_id differs from X-Request-Id';
  if (!isProblemCode(code)) return `unknown code ${code}`;
  if (PROBLEM_CATALOG[code].status !== status) return `code ${code} with status ${status}`;
  if (body.type !== `http://api.test/problems/${code.replace(/_/g, '-')}`) return `type ${String(body.type)}`;
  for (const name of ['title', 'detail', 'instance'] as const) if (typeof body[name] !== 'string') return `${name} not a string`;
  if (!Array.isArray(errors) || errors.length > 50) return 'errors not an array of at most 50';
  for (const error of errors) {
    const entry = error as Record<string, unknown>;
    if (Object.keys(entry).sort().join() !== 'code,message,path' || Object.values(entry).some((v) => typeof v !== 'string'))
      return `errors entry ${JSON.stringify(entry)}`;
  }
  if ('errors_total' in body && !(typeof body.errors_total === 'number' && body.errors_total > errors.length)) return 'errors_total';
  return undefined;
}

export function describeProbe(probe: Probe): string {
  const body = probe.body === undefined ? '' : ` body(${probe.body.length}) ${probe.body.slice(0, 200)}`;
  return `${probe.method} ${probe.path.slice(0, 300)} ${JSON.stringify(probe.headers).slice(0, 300)}${body}`;
}
