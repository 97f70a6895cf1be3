/**
 * A JSON reply whose status is decided at run time (Nest applies @HttpCode statically). Nest sends a returned
 * web Response as it is, and the idempotency interceptor can store and replay it.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}
