import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROBLEM_CATALOG, isProblemCode } from '../common/errors/problem-catalog';

/**
 * Facts about the committed contract (openapi/openapi.json) that Swagger UI users and generated clients rely on.
 * test/openapi.e2e-spec.ts proves the committed file is what the app serves.
 */
const DOCUMENT_FILE = join(__dirname, '..', '..', 'openapi', 'openapi.json');
const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Json;

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations: Array<{ path: string; method: string; operation: Json }> = Object.entries(document.paths as Json).flatMap(
  ([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Json })),
);
const operation = (method: string, path: string) => document.paths[path][method] as Json;
const schema = (name: string) => document.components.schemas[name] as Json;
const refName = (node: Json) =>
  String(node.$ref ?? node.allOf?.[0]?.$ref ?? node.items?.$ref)
    .split('/')
    .pop()!;
/** Example name -> example value of each status's problem response. */
const problemExamples = (op: Json): Record<string, Record<string, Json>> =>
  Object.fromEntries(
    Object.entries(op.responses as Json)
      .filter(([, response]) => response.content?.['application/problem+json'])
      .map(([status, response]) => [
        status,
        Object.fromEntries(
          Object.entries(response.content['application/problem+json'].examples ?? {}).map(([name, example]) => [
            name,
            (example as Json).value,
          ]),
        ),
      ]),
  );

describe('the OpenAPI document', () => {
  it('declares the tags with descriptions, in workflow order, and tags and describes every operation', () => {
    expect(document.tags.map((tag: Json) => tag.name)).toEqual(['Discovery', 'Scans', 'Snapshots', 'Exports', 'Usage', 'Keys', 'Webhooks', 'Health']);
    for (const tag of document.tags) expect(tag.description).toEqual(expect.stringMatching(/\w{3,}/));
    const declared = new Set(document.tags.map((tag: Json) => tag.name));
    for (const { path, method, operation: op } of operations) {
      expect([method, path, op.description?.length > 40]).toEqual([method, path, true]);
      expect([method, path, op.tags?.length === 1 && declared.has(op.tags[0])]).toEqual([method, path, true]);
    }
  });

  it('gives every response its own description, and never the placeholder "Success"', () => {
    for (const { path, method, operation: op } of operations) {
      const descriptions = Object.values(op.responses as Json).map((response) => response.description ?? response.$ref);
      expect(descriptions.every((text) => typeof text === 'string' && text !== 'Success' && text !== '')).toBe(true);
      expect([method, path, new Set(descriptions).size]).toEqual([method, path, descriptions.length]);
    }
  });

  it('documents the Idempotency-Key header by its format, with no example Swagger UI would send', () => {
    for (const [method, path] of [
      ['post', '/v1/scans'],
      ['post', '/v1/exports'],
    ]) {
      const header = operation(method, path).parameters.find((p: Json) => p.name === 'Idempotency-Key');
      expect(header).toMatchObject({ in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
      expect(header.description).toMatch(/printable ASCII/);
      expect(JSON.stringify(header)).not.toMatch(/"examples?"/);
    }
  });

  it('gives each problem response an example per code, matching the response status', () => {
    for (const { path, method, operation: op } of operations) {
      for (const [status, examples] of Object.entries(problemExamples(op))) {
        expect(Object.keys(examples).length).toBeGreaterThan(0);
        for (const [name, value] of Object.entries(examples)) {
          expect([method, path, name, value.status, isProblemCode(value.code) && PROBLEM_CATALOG[value.code].status]).toEqual([
            method,
            path,
            name,
            Number(status),
            Number(status),
          ]);
          expect(value.instance.startsWith(path.split('{')[0])).toBe(true);
        }
      }
    }
  });

  it('keeps every problem code of POST /v1/scans and POST /v1/exports, merged across the decorators that add them', () => {
    expect(problemExamples(operation('post', '/v1/scans'))).toMatchObject({
      400: { invalid_request: { code: 'invalid_request' } },
      401: { authentication_required: {}, authentication_invalid: {}, key_revoked: {} },
      402: { budget_exhausted: {} },
      409: { idempotency_key_in_use: {}, idempotency_in_progress: {} },
      422: {
        validation_error: { code: 'validation_error' },
        engine_deprecated: { code: 'validation_error', errors: [{ path: 'engine', code: 'engine_deprecated' }] },
        council_model_fixed: { code: 'council_model_fixed' },
        invalid_idempotency_key: { code: 'invalid_idempotency_key' },
      },
      429: { rate_limit_exceeded: {} },
      500: { internal_error: {} },
      503: { transient_error: {}, engine_unavailable: { code: 'engine_unavailable' } },
    });
    expect(problemExamples(operation('post', '/v1/exports'))).toMatchObject({
      404: { not_found: {} },
      409: { idempotency_key_in_use: {}, idempotency_in_progress: {} },
      422: { validation_error: {}, unsupported_locale: { code: 'unsupported_locale' }, invalid_idempotency_key: {} },
      503: { transient_error: {} },
    });
  });

  it('types the snapshot: config, an open envelope with typed items (milestone, key_date_precision), verification passes and _meta', () => {
    const snapshot = schema('SnapshotDto').properties;
    expect(schema(refName(snapshot.config)).properties).toHaveProperty('engine');
    const envelope = schema(refName(snapshot.data));
    expect(envelope.additionalProperties).toBe(true);
    for (const key of ['items', 'trends', 'executive_summary', 'executive_narrative', '_briefing', 'auditor', 'translations', '_meta']) {
      expect(envelope.properties).toHaveProperty([key]);
    }
    const item = schema(refName(envelope.properties.items));
    expect(Object.keys(item.properties)).toEqual(
      expect.arrayContaining(['id', 'key_date', 'key_date_precision', 'milestone', 'citations', 'verification']),
    );
    expect(item.required).not.toContain('milestone');
    const verification = schema(refName(item.properties.verification));
    expect(schema(refName(verification.properties.passes)).properties).toHaveProperty('pass');
    expect(schema(refName(envelope.properties._meta)).additionalProperties).toBe(true);
    expect(refName(envelope.properties.translations.additionalProperties)).toBe('EnvelopeTranslationDto');
  });

  it('types drift values as any JSON value, objects open', () => {
    const change = schema('DriftFieldChangeDto').properties;
    for (const side of [change.before, change.after]) {
      expect(side.anyOf).toEqual(expect.arrayContaining([{ type: 'null' }, { type: 'object', additionalProperties: true }]));
      expect(side.type).toBeUndefined();
    }
    expect(schema('DriftDto').properties.removed_reasons.additionalProperties.enum).toContain('dropped_by_cap');
  });

  it('documents the scan stream as four event schemas under text/event-stream, told apart by type, resumable with Last-Event-ID', () => {
    const stream = operation('get', '/v1/scans/{id}/stream');
    const body = stream.responses['200'].content['text/event-stream'];
    expect(body.schema.discriminator.propertyName).toBe('type');
    expect(Object.keys(body.schema.discriminator.mapping)).toEqual(['progress', 'complete', 'error', 'cancelled']);
    for (const [type, ref] of Object.entries(body.schema.discriminator.mapping as Record<string, string>)) {
      expect(body.schema.oneOf).toContainEqual({ $ref: ref });
      expect(schema(ref.split('/').pop()!).properties.type.enum).toEqual([type]);
    }
    expect(schema('ScanCompleteEventDto').properties.data.allOf[0].$ref).toBe('#/components/schemas/SnapshotEnvelopeDto');
    expect(stream.parameters).toContainEqual(expect.objectContaining({ name: 'Last-Event-ID', in: 'header', required: false }));
  });

  it('documents downloads as binary per media type, with 206 byte ranges and 416', () => {
    const download = operation('get', '/v1/exports/{id}/download');
    const whole = download.responses['200'];
    for (const mime of [
      'application/pdf',
      'text/csv',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'text/html',
      'image/png',
      'audio/mpeg',
      'video/mp4',
    ]) {
      expect(whole.content[mime].schema).toMatchObject({ type: 'string', format: 'binary' });
    }
    expect(whole.headers['Content-Disposition'].required).toBe(true);
    expect(whole.headers).toHaveProperty('Accept-Ranges');
    const partial = download.responses['206'];
    expect(Object.keys(partial.content)).toEqual(expect.arrayContaining(['audio/mpeg', 'video/mp4']));
    expect(partial.content).not.toHaveProperty('application/pdf');
    expect(partial.headers['Content-Range'].required).toBe(true);
    expect(download.responses['416'].headers).toHaveProperty('Content-Range');
    expect(download.parameters).toContainEqual(expect.objectContaining({ name: 'Range', in: 'header' }));
  });

  it('describes API keys as opaque, not JWTs', () => {
    const bearer = document.components.securitySchemes.bearer;
    expect(bearer.bearerFormat).not.toMatch(/jwt/i);
    expect(bearer.bearerFormat).toMatch(/_live_/);
  });

  it('declares no `default` in request bodies (generators would make the field required); `engine` is optional', () => {
    for (const name of ['ScanConfigDto', 'ScanEstimateRequestDto', 'CreateExportDto', 'CreateApiKeyDto']) {
      expect(JSON.stringify(schema(name))).not.toMatch(/"default"/);
    }
    expect(schema('ScanConfigDto').required).toEqual(['jurisdictions', 'areas', 'horizon']);
    expect(schema('ScanEstimateRequestDto').required).toEqual(['jurisdictions', 'areas']);
  });

  it('gives 304 no body, only headers', () => {
    const notModified = operations.filter(({ operation: op }) => op.responses['304']).map(({ operation: op }) => op.responses['304']);
    expect(notModified).toHaveLength(7);
    for (const response of notModified) {
      expect(response.content).toBeUndefined();
      expect(response.headers.ETag.required).toBe(true);
    }
  });

  it('pre-fills no list filter and no longer offers the removed `starred`', () => {
    const list = operation('get', '/v1/snapshots');
    expect(list.parameters.map((p: Json) => p.name)).not.toContain('starred');
    for (const name of ['from', 'to', 'jurisdiction', 'area']) {
      const parameter = list.parameters.find((p: Json) => p.name === name);
      expect(JSON.stringify(parameter)).not.toMatch(/"(example|examples|default)"/);
    }
  });

  it('keeps the horizon of the request examples a chosen value, and never a retired engine or a v4.5-beta-only field on another engine', () => {
    const examples = Object.values(operation('post', '/v1/scans').requestBody.content['application/json'].examples as Json).map(
      (example) => example.value,
    );
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const body of examples) {
      if (body.fetchProvider || body.searchProvider) expect(body.engine).toBe('v4.5-beta');
      if (body.verificationMode || body.realist || body.auditor) expect(body.engine).toBeDefined();
    }
    const estimates = Object.values(operation('post', '/v1/scans/estimate').requestBody.content['application/json'].examples as Json);
    expect(estimates.map((example) => example.value.horizon)).not.toContain(3);
  });

  it('keeps openapi-typescript request types optional where the API has a default', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'rgs-openapi-ts-')), 'schema.d.ts');
    const cli = join(__dirname, '..', '..', 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    await promisify(execFile)(process.execPath, [cli, DOCUMENT_FILE, '-o', out]);
    const types = readFileSync(out, 'utf8');
    const scanConfig = types.slice(types.indexOf('ScanConfigDto: {'), types.indexOf('ScanEstimateDto: {'));
    expect(scanConfig).toMatch(/\bengine\?: "v4"/);
    expect(scanConfig).toMatch(/\bhorizon: 3 \| 6/);
    const drift = types.slice(types.indexOf('DriftFieldChangeDto: {'));
    expect(drift.slice(0, drift.indexOf('};\n'))).not.toMatch(/Record<string, never>/);
  }, 60_000);
});
