import { createHash } from 'node:crypto';
import type { Response as ExpressResponse } from 'express';

/**
 * Bumped whenever the read projection changes (marker stripping, language projection, drift rules), so a
 * client's cached representation is never confirmed by a 304 after the rules changed, and every stored
 * representation (snapshot_representations) is derived again on its next read.
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

/** An If-None-Match header as the tags it names (compared weakly: W/ prefixes dropped), or `*` for any tag. */
export type IfNoneMatch = '*' | string[];

/** RFC 9110 If-None-Match, parsed in time linear in the header; absent, over-long or repeated headers name no tag. */
export function parseIfNoneMatch(header: string | undefined): IfNoneMatch {
  if (typeof header !== 'string' || header === '' || header.length > MAX_IF_NONE_MATCH_LENGTH) return [];
  if (header.trim() === '*') return '*';
  return header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
}

/** Whether parsed If-None-Match tags name `etag` (`*` names any). */
export function namesTag(ifNoneMatch: IfNoneMatch, etag: string): boolean {
  return ifNoneMatch === '*' || ifNoneMatch.includes(etag);
}

export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  return namesTag(parseIfNoneMatch(header), etag);
}

/** A read's answer: its strong tag, and the JSON to send, or null for a 304 (If-None-Match named the tag). */
export interface Representation {
  etag: string;
  json: string | null;
}

/**
 * Writes a representation with `@Res({ passthrough: true })`: 200 with the JSON as it is (no parse or stringify;
 * Express sets Content-Length), or 304 with the tag and no body. `ifNoneMatch` is the request's header.
 */
export function sendRepresentation(res: ExpressResponse, representation: Representation, ifNoneMatch: string | undefined): string | Response {
  // Authorised per account: shared caches must not keep it, private caches revalidate (cheap with the ETag).
  const headers = { ETag: representation.etag, 'Cache-Control': 'private, no-cache' };
  // A returned value gets the route's 200 from Nest, so a 304 is returned as a web Response.
  if (representation.json === null) return new Response(null, { status: 304, headers });
  // Express's res.send() applies its own If-None-Match check (without our length bound); a request that sent one
  // and did not match is answered as a web Response, which bypasses it.
  const json = 'application/json; charset=utf-8';
  if (ifNoneMatch !== undefined) return new Response(representation.json, { status: 200, headers: { 'Content-Type': json, ...headers } });
  res.set({ 'Content-Type': json, ...headers });
  return representation.json;
}
