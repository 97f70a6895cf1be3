import fc from 'fast-check';
import { ascii, dateParam, estimateBody, exportBody, headerValue, idSegment, intParam, json, keyBody, longHeader, pct, queryOf, rawBody, scanBody, urlText, type Method, type Probe, type RawBody } from './fuzz-values';

/** Real ids and credentials the route generators draw from; filled in by the test before any case runs. */
export interface FuzzWorld {
  accountId: string;
  apiKey: string;
  spareKeyId: string;
  cookie: string;
  scanId: string;
  snapshotId: string;
  exportId: string;
}

/** Every route of the API, by family, as generators of requests (test/fuzz.e2e-spec.ts). */
export function fuzzRoutes(world: FuzzWorld): { families: Record<string, fc.Arbitrary<Probe>>; stray: fc.Arbitrary<Probe> } {
  function bearer(): fc.Arbitrary<Record<string, string>> {
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant(null).map(() => ({ Authorization: `Bearer ${world.apiKey}` })) },
      { weight: 1, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: headerValue.map((value) => ({ Authorization: value })) },
      { weight: 1, arbitrary: ascii(40).map((value) => ({ Authorization: `Bearer rgs_live_${value}` })) },
    );
  }

  function session(): fc.Arbitrary<Record<string, string>> {
    return fc
      .tuple(
        fc.oneof(
          { weight: 8, arbitrary: fc.constant(null).map(() => ({ Cookie: world.cookie })) },
          { weight: 1, arbitrary: fc.constant({}) },
          { weight: 1, arbitrary: headerValue.map((value) => ({ Cookie: `dashboard_session=${value}` })) },
          { weight: 1, arbitrary: fc.constant(null).map(() => ({ Authorization: `Bearer ${world.apiKey}` })) },
        ),
        fc.option(
          fc.oneof(
            fc.constantFrom('https://dashboard.example.com', 'https://dashboard.example.com///', 'https://evil.example', 'null'),
            headerValue,
            longHeader.map((value) => `https://x${value}y`),
          ),
          { nil: undefined },
        ),
      )
      .map(([auth, origin]) => (origin === undefined ? auth : { ...auth, Origin: origin }));
  }

  const optionalHeader = (name: string, value: fc.Arbitrary<string>) =>
    fc.option(value, { nil: undefined }).map((v): Record<string, string> => (v === undefined ? {} : { [name]: v }));

  interface RouteSpec {
    method: Method;
    path: fc.Arbitrary<string>;
    auth: fc.Arbitrary<Record<string, string>>;
    extraHeaders?: fc.Arbitrary<Record<string, string>>;
    body?: fc.Arbitrary<RawBody>;
  }

  function probeOf(route: RouteSpec): fc.Arbitrary<Probe> {
    return fc
      .tuple(
        route.path,
        route.auth,
        route.extraHeaders ?? fc.constant({}),
        route.body ? fc.option(route.body, { nil: undefined, freq: 8 }) : fc.constant(undefined),
      )
      .map(([path, auth, extra, body]) => {
        const headers: Record<string, string> = { ...auth, ...extra };
        if (body?.contentType) headers['Content-Type'] = body.contentType;
        return { method: route.method, path, headers, body: body?.body, mayBeUnreadable: body?.mayBeUnreadable ?? false };
      });
  }

  const idempotencyKey = optionalHeader(
    'Idempotency-Key',
    fc.oneof(fc.uuid(), headerValue, fc.constantFrom('', 'k'.repeat(255), 'k'.repeat(256), 'tab\there')),
  );
  const ifNoneMatch = optionalHeader('If-None-Match', fc.oneof(headerValue, fc.constantFrom('*', 'W/"x"', '"x", W/"y"')));

  const path = (...parts: Array<string | fc.Arbitrary<string>>) =>
    fc.tuple(...parts.map((part) => (typeof part === 'string' ? fc.constant(part) : part))).map((segments) => segments.join(''));

  const snapshotId = idSegment(() => world.snapshotId);
  const scanId = idSegment(() => world.scanId);
  const exportId = idSegment(() => world.exportId);
  const snapshotSub = fc.constantFrom('', '/items', '/trends', '/executive-summary', '/drift', '/briefing');

  const ROUTES: Record<string, RouteSpec[]> = {
    keys: [
      { method: 'POST', path: fc.constant('/v1/keys'), auth: session(), body: rawBody(keyBody) },
      { method: 'GET', path: fc.constant('/v1/keys'), auth: session() },
      {
        method: 'POST',
        path: path(
          '/v1/keys/',
          idSegment(() => world.spareKeyId),
          '/revoke',
        ),
        auth: session(),
        body: rawBody(json),
      },
    ],
    scans: [
      {
        method: 'POST',
        path: path('/v1/scans', queryOf({ mode: fc.oneof(fc.constantFrom('sync', 'async'), urlText) })),
        auth: bearer(),
        extraHeaders: idempotencyKey,
        body: rawBody(scanBody),
      },
      { method: 'POST', path: fc.constant('/v1/scans/estimate'), auth: bearer(), body: rawBody(estimateBody) },
      { method: 'GET', path: path('/v1/scans/', scanId), auth: bearer() },
      // The only scan is finished, so its stream sends one terminal event and closes.
      { method: 'GET', path: path('/v1/scans/', scanId, '/stream'), auth: bearer() },
      { method: 'POST', path: path('/v1/scans/', scanId, '/cancel'), auth: bearer(), body: rawBody(json) },
    ],
    snapshots: [
      {
        method: 'GET',
        path: path(
          '/v1/snapshots',
          queryOf({
            from: dateParam,
            to: dateParam,
            jurisdiction: urlText,
            area: urlText,
            limit: intParam,
            offset: intParam,
            starred: urlText,
          }),
        ),
        auth: bearer(),
      },
      {
        method: 'GET',
        path: path(
          '/v1/snapshots/',
          snapshotId,
          snapshotSub,
          queryOf({ language: fc.oneof(fc.constantFrom('en', 'fr', 'simple', 'EN'), urlText) }),
        ),
        auth: bearer(),
        extraHeaders: ifNoneMatch,
      },
      {
        method: 'GET',
        path: path('/v1/snapshots/', snapshotId, '/executive-narrative', queryOf({ language: urlText })),
        auth: bearer(),
        extraHeaders: ifNoneMatch,
      },
    ],
    exports: [
      { method: 'POST', path: fc.constant('/v1/exports'), auth: bearer(), extraHeaders: idempotencyKey, body: rawBody(exportBody) },
      {
        method: 'GET',
        path: path(
          '/v1/exports',
          queryOf({
            snapshot_id: fc.oneof(fc.uuid(), urlText),
            status: fc.oneof(fc.constantFrom('queued', 'completed,failed', ',', 'undelivered'), urlText),
            limit: intParam,
          }),
        ),
        auth: bearer(),
      },
      { method: 'GET', path: path('/v1/exports/', exportId), auth: bearer() },
      {
        method: 'GET',
        path: path('/v1/exports/', exportId, '/download'),
        auth: bearer(),
        extraHeaders: optionalHeader(
          'Range',
          fc.oneof(headerValue, fc.constantFrom('bytes=0-1', 'bytes=-5', 'bytes=5-', 'bytes=0-1,2-3', 'bytes=99999-')),
        ),
      },
      {
        method: 'DELETE',
        path: path(
          '/v1/exports/',
          fc.oneof(
            fc.uuid(),
            urlText.map((value) => pct(value) || 'x'),
          ),
        ),
        auth: bearer(),
        body: rawBody(json),
      },
    ],
    discovery: [
      {
        method: 'GET',
        path: path('/v1/meta/', fc.constantFrom('engines', 'models', 'jurisdictions', 'areas', 'export-types')),
        auth: bearer(),
      },
      {
        method: 'GET',
        path: path(
          '/v1/usage',
          queryOf({
            from: dateParam,
            to: dateParam,
            group_by: fc.oneof(fc.constantFrom('day', 'week', 'month', 'api_key', 'endpoint'), urlText),
          }),
        ),
        auth: fc.oneof(bearer(), session()),
      },
      { method: 'GET', path: fc.constant('/v1/usage/budget'), auth: fc.oneof(bearer(), session()) },
      {
        method: 'GET',
        path: path(
          '/problems/',
          fc.oneof(
            fc.constantFrom('not-found', 'validation-error'),
            urlText.map((value) => pct(value) || 'x'),
          ),
        ),
        auth: fc.constant({}),
      },
      { method: 'GET', path: fc.constantFrom('/health/live', '/health/ready'), auth: fc.constant({}) },
      {
        method: 'GET',
        path: fc
          .array(
            urlText.map((value) => pct(value) || 'x'),
            { minLength: 1, maxLength: 4 },
          )
          .map((segments) => `/v1/${segments.join('/')}`),
        auth: bearer(),
      },
    ],
  };

  /** Unknown paths and known paths under other methods. */
  const strayProbe = fc
    .tuple(
      fc.constantFrom<Method>('GET', 'POST', 'DELETE', 'PUT', 'PATCH'),
      fc.oneof(
        fc.constantFrom('/v1/keys', '/v1/scans', '/v1/snapshots', '/v1/exports', '/v1/usage', '/v1/meta/engines', '/', '/v2/scans'),
        fc
          .array(
            urlText.map((v) => pct(v) || 'x'),
            { maxLength: 3 },
          )
          .map((s) => `/${s.join('/')}`),
      ),
      bearer(),
      fc.option(rawBody(json), { nil: undefined }),
    )
    .map(([method, path, auth, body]): Probe => ({
      method,
      path,
      headers: { ...auth, ...(body?.contentType ? { 'Content-Type': body.contentType } : {}) },
      body: body?.body,
      mayBeUnreadable: body?.mayBeUnreadable ?? false,
    }));

  const families = Object.fromEntries(Object.entries(ROUTES).map(([family, routes]) => [family, fc.oneof(...routes.map(probeOf))]));
  return { families, stray: strayProbe };
}
