const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids that are not UUIDs are answered like unknown ids (404), without a query that would reject them. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
