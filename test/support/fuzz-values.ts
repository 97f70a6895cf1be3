// Generators of values, bodies and URL parts for the property-based probes of test/fuzz.e2e-spec.ts.
import fc from 'fast-check';

export type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

/** One generated request. */
export interface Probe {
  method: Method;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The body may be unparseable, in a charset we refuse, or over 2 MB: a plain 400/413 is then allowed. */
  mayBeUnreadable: boolean;
}

export const nastyText = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'EU\u0000',
  '\ud800',
  'x\udfff',
  '\ud83d',
  '😀',
  '%00',
  '../..',
  '__proto__',
  'constructor',
  'toString',
  'null',
  '[]',
  '{}',
  '2009-W01-1',
  '0000-01-01',
  '2026-02-30',
  '2026-01-31',
  '2026-01-31T10:00:00Z',
  '2026-01-31T10:00:00+02:00',
  '9999-12-31T23:59:59.999Z',
  '-271821-04-20',
  'EU',
  'eu',
  'Payments',
  'v4',
  'council',
  'admiral',
  'large',
  'small',
  'fr',
  'EN',
  'simple',
  'W/"x"',
  '*',
);
export const longText = (max: number) =>
  fc
    .tuple(fc.constantFrom('a', '/', '\u0000', '😀', '[', '"', ',', ' ', 'é', '\ud800'), fc.integer({ min: 60, max }))
    .map(([unit, count]) => unit.repeat(count));
export const textUpTo = (max: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
    { weight: 4, arbitrary: nastyText },
    { weight: 1, arbitrary: longText(max) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\ud800', '\udc00', 'a', '\u0000'), maxLength: 8 }) },
  );
/** Text for bodies, up to 70,000 characters. */
export const text = textUpTo(70_000);
/** Text for paths and query strings, short enough that most requests fit Node's 16 KB header limit. */
export const urlText = textUpTo(1500);
export const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    text,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;
export const largeArray = fc
  .tuple(fc.constantFrom<unknown>('EU', 7, null, '\u0000', [], 'x'.repeat(150)), fc.integer({ min: 21, max: 5000 }))
  .map(([entry, count]) => new Array(count).fill(entry));
export const manyMembers = fc
  .integer({ min: 60, max: 3000 })
  .map((count) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i])));

/** A plausible value for a field, or anything at all. */
export const field = (...plausible: unknown[]) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...plausible) }, { weight: 2, arbitrary: json });
export const names = (...plausible: string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.array(fc.oneof(fc.constantFrom(...plausible), text), { maxLength: 22 }) },
    { weight: 1, arbitrary: largeArray },
    { weight: 1, arbitrary: json },
  );

/** Objects built from an endpoint's fields (each optional), sometimes with unknown members or far too many. */
export function bodyOf(model: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const known = fc.record(model, { requiredKeys: [] });
  return fc.oneof(
    { weight: 6, arbitrary: known },
    { weight: 1, arbitrary: fc.tuple(known, fc.dictionary(text, json, { maxKeys: 3 })).map(([a, b]) => ({ ...b, ...a })) },
    { weight: 1, arbitrary: fc.tuple(known, manyMembers).map(([a, b]) => ({ ...b, ...a })) },
    { weight: 1, arbitrary: json },
  );
}

export const scanBody = bodyOf({
  jurisdictions: names('EU', 'UK', 'US', 'eu'),
  areas: names('Payments', 'AML / KYC'),
  horizon: field(3, 6, 12, 18, 24, 36, 7, '12'),
  engine: field('v4', 'v4.5-alpha', 'v4.5-beta', 'council', 'v1', 'admiral'),
  model: field('large', 'large48', 'medium', 'small', 'anthropic-large'),
  searchModel: field('medium', 'small'),
  verificationMode: field('in-analyst'),
  realist: field(true, false),
  auditor: field(true, false),
  auditorModel: field('medium', 'large'),
  fetchProvider: field('fetch-a', 'fetch-b'),
  searchProvider: field('search-a', 'search-b'),
  verifyProvider: field('fetch-a', 'fetch-b'),
  translationLanguages: names('fr', 'de', 'pt', 'xx'),
});
export const estimateBody = bodyOf({
  jurisdictions: names('EU', 'UK'),
  areas: names('Payments'),
  horizon: field(3, 12, 36, 5),
  engine: field('v4', 'council', 'v3'),
  seekerProvider: field('perplexity', 'offline', 'bing'),
  analystProvider: field('anthropic', 'offline'),
  translatorProvider: field('deepl'),
});
export const exportBody = bodyOf({
  // A real snapshot id only with invalid types or options, so no export job is rendered in bulk.
  snapshot_id: fc.oneof(fc.uuid(), text, json),
  provider: field('internal-pdf', 'internal-pptx', 'notebook', 'voice-briefing', 'imagegen-a-infographic', 'notebok'),
  artifact_type: field('pdf', 'slide-deck', 'audio', 'podcast-briefing', 'infographic-custom', 'slide-dek'),
  options: fc.oneof(
    fc.dictionary(
      fc.oneof(
        fc.constantFrom(
          'theme',
          'targetLanguage',
          'instructions',
          'styleSlug',
          'model_id',
          'modelId',
          'editorialModel',
          'audio_format',
          'thme',
        ),
        text,
      ),
      fc.oneof(fc.constantFrom('dark', 'light', 'fr', 'xx', 'DEBATE', 'medium'), text, json),
      { maxKeys: 5 },
    ),
    manyMembers,
    json,
  ),
});
export const keyBody = bodyOf({ name: field('ci key', '', 'x'.repeat(201)) });

/** Percent-encodes every byte outside the unreserved set (lone surrogates become U+FFFD, as any client sends them). */
export const pct = (value: string) =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

export const deepJson = fc
  .tuple(fc.constantFrom('[', '{"a":'), fc.integer({ min: 20, max: 100_000 }), fc.boolean())
  .map(([open, levels, closed]) => open.repeat(levels) + (closed ? '1' + (open === '[' ? ']' : '}').repeat(levels) : ''));

export interface RawBody {
  body: string;
  contentType?: string;
  mayBeUnreadable: boolean;
}

export const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/problem+json', 'Application/JSON'];

export function rawBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<RawBody> {
  return fc.oneof(
    {
      weight: 12,
      arbitrary: fc
        .tuple(value, fc.constantFrom(...JSON_TYPES))
        .map(([v, contentType]) => ({ body: JSON.stringify(v) ?? 'null', contentType, mayBeUnreadable: false })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(deepJson, fc.constantFrom(...JSON_TYPES))
        .map(([body, contentType]) => ({ body, contentType, mayBeUnreadable: true })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...JSON_TYPES))
        .map(([body, contentType]) => ({ body, contentType, mayBeUnreadable: true })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          value,
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/json; charset=latin1',
            'application/json; charset=utf-16le',
            'application/xml',
          ),
        )
        .map(([v, contentType]) => ({ body: JSON.stringify(v) ?? '1', contentType, mayBeUnreadable: true })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<RawBody>(
        { body: '', contentType: 'application/json', mayBeUnreadable: false },
        { body: '', mayBeUnreadable: false },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constant<RawBody>({ body: `"${'x'.repeat(2 * 1024 * 1024)}"`, contentType: 'application/json', mayBeUnreadable: true }),
    },
  );
}

export const ascii = (maxLength: number) => fc.string({ unit: 'grapheme-ascii', maxLength });
export const longHeader = fc
  .tuple(fc.constantFrom('/', 'a', ',', ' ', 'W/"x",'), fc.integer({ min: 100, max: 7000 }))
  .map(([unit, count]) => unit.repeat(count));
export const headerValue = fc.oneof({ weight: 4, arbitrary: ascii(60) }, { weight: 1, arbitrary: longHeader });

/** A path id: the real one, a random uuid, or any text (percent-encoded, sometimes broken encodings). */
export const idSegment = (real: () => string) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(null).map(() => real()) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: urlText.map((value) => pct(value) || 'x') },
    { weight: 1, arbitrary: fc.constantFrom('%ZZ', '%E0%A4%A', '%00', '..', '%2F', 'a%', '%C0%AF') },
  );

/** A query string over the route's parameters plus junk ones; a parameter may repeat. */
export function queryOf(params: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const names = Object.keys(params);
  const pair = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .constantFrom(...(names.length ? names : ['x']))
        .chain((name) => (params[name] ?? urlText).map((value) => [name, value] as const)),
    },
    { weight: 1, arbitrary: fc.tuple(urlText, urlText) },
  );
  return fc
    .array(pair, { maxLength: 4 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&')}` : ''));
}
export const dateParam = fc.oneof(
  nastyText,
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  urlText,
);
export const intParam = fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), urlText);
