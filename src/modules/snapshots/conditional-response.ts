import { createHash } from 'node:crypto';

/**
 * Bumped whenever the read projection changes (marker stripping, language projection, drift rules), so a
 * client's cached representation is never confirmed by a 304 after the rules changed.
 */
export const SNAPSHOT_PROJECTION_VERSION = 1;

/**
 * Strong ETag of a snapshot read: SHA-256 of the projection version and the exact JSON sent. Snapshots are
 * immutable, so the tag of an id, resource and language stays the same; hashing the representation (not only the
 * id) also keeps it right if an envelope ever gains a translation after the fact.
 */
export function strongEtag(json: string): string {
  return `"${createHash('sha256').update(`v${SNAPSHOT_PROJECTION_VERSION}\n`).update(json).digest('base64url')}"`;
}

/** Room for about 90 of our tags; a longer If-None-Match is ignored (RFC 9110 lets a server skip a precondition). */
export const MAX_IF_NONE_MATCH_LENGTH = 4096;

/** RFC 9110 If-None-Match: `*`, or a list of entity tags compared weakly (W/ prefixes ignored). Linear in the header. */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (typeof header !== 'string' || header === '' || header.length > MAX_IF_NONE_MATCH_LENGTH) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === wanted);
}

/** 200 with the body and its ETag, or 304 with the ETag and no body when If-None-Match matches. */
export function conditionalJson(body: unknown, ifNoneMatch: string | undefined): Response {
  const json = JSON.stringify(body);
  const etag = strongEtag(json);
  // Authorised per account: shared caches must not keep it, private caches revalidate (cheap with the ETag).
  const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
  if (ifNoneMatchMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  return new Response(json, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}
