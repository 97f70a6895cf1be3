/**
 * Test helper (unit and e2e): one loopback server speaking three Google wire formats, for the `notebooklm-enterprise`
 * kind of the notebook integration (src/infra/providers/notebook/notebooklm-enterprise.adapter.ts):
 * - the OAuth 2.0 token endpoint (`POST /token`, JWT bearer grant, RFC 7523): the assertion is verified with the
 *   test service account's public key (RS256, iss = client_email, aud = the token URI, a cloud-platform scope) and
 *   answered `{access_token, expires_in, token_type: "Bearer"}`;
 * - NotebookLM Enterprise (Discovery Engine v1alpha): notebooks.create, notebooks.sources.batchCreate (text
 *   content), notebooks.audioOverviews.create;
 * - the Podcast API (Discovery Engine v1): podcasts.create (a long-running operation), operations.get, and
 *   `{operation}:download?alt=media` answering MP3 bytes.
 * Every Discovery Engine call needs `Authorization: Bearer <a token this server issued and has not expired>`; others
 * get Google's 401 UNAUTHENTICATED body. Every request is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, generateKeyPair, exportPKCS8, jwtVerify, type CryptoKey } from 'jose';
import { fakeMp3 } from './fake-media-servers';
import { recordRequest, type RecordedRequest } from './recorded-request';

export const FAKE_NOTEBOOKLM_PROJECT = '123456789012';
export const FAKE_NOTEBOOKLM_LOCATION = 'global';

/** A service-account key JSON as Google issues it, for a key pair made in the test; token_uri points at the fake. */
export interface FakeServiceAccountKey {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  token_uri: string;
}

export async function fakeServiceAccountKey(tokenUri: string): Promise<{ key: FakeServiceAccountKey; publicKey: CryptoKey }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    publicKey,
    key: {
      type: 'service_account',
      project_id: 'regscan-test',
      private_key_id: 'fake-key-id-1',
      private_key: await exportPKCS8(privateKey),
      client_email: 'notebook-exports@regscan-test.iam.gserviceaccount.com',
      client_id: '100000000000000000001',
      token_uri: tokenUri,
    },
  };
}

export interface FakePodcast {
  id: string;
  operationName: string;
  request: Record<string, unknown>;
  polls: number;
}

export interface FakeNotebookLm {
  baseUrl: string;
  tokenUri: string;
  serviceAccountKey: FakeServiceAccountKey;
  requests: RecordedRequest[];
  /** Grants answered: the decoded assertion claims and the token issued. */
  grants: Array<{ claims: Record<string, unknown>; accessToken: string }>;
  podcasts: FakePodcast[];
  /** Polls an operation answers `done: false` before it is done. */
  pollsUntilDone: number;
  /** The next podcast operation finishes with this error (google.rpc.Status) instead of a podcast. */
  failNextOperation(message: string): void;
  /** Every token issued so far stops working (as after its expiry): calls carrying it get 401. */
  expireIssuedTokens(): void;
  /** Also accept this static access token (the `accessToken` form of the integration). */
  acceptToken(token: string): void;
  /** The next `times` calls to `route` answer `status` with Google's error body. */
  failNext(route: FakeNotebookLmRoute, status: number, times?: number): void;
  close(): Promise<void>;
}

export type FakeNotebookLmRoute = 'token' | 'podcast' | 'operation' | 'download' | 'notebook';

function routeOf(method: string, path: string): FakeNotebookLmRoute | null {
  if (path === '/token') return 'token';
  if (path.startsWith('/v1alpha/')) return 'notebook';
  if (method === 'POST' && path.endsWith('/podcasts')) return 'podcast';
  if (path.endsWith(':download')) return 'download';
  if (path.includes('/operations/')) return 'operation';
  return null;
}

const PODCAST_LENGTHS = ['SHORT', 'STANDARD'];

export async function startFakeNotebookLm(options: { pollsUntilDone?: number } = {}): Promise<FakeNotebookLm> {
  const requests: RecordedRequest[] = [];
  const grants: FakeNotebookLm['grants'] = [];
  const podcasts: FakePodcast[] = [];
  const valid = new Set<string>();
  let failNext: string | null = null;
  const failures: Array<{ route: FakeNotebookLmRoute; status: number }> = [];
  let notebooks = 0;
  let sources = 0;
  let publicKey: CryptoKey;
  let tokenUri = '';

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body));
  };
  const googleError = (res: ServerResponse, code: number, status: string, message: string) =>
    send(res, code, { error: { code, message, status } });

  const handle = async (req: IncomingMessage, res: ServerResponse, request: RecordedRequest) => {
    const url = new URL(request.path, 'http://fake');
    const path = url.pathname;
    const failure = failures.findIndex((entry) => entry.route === routeOf(request.method, path));
    if (failure !== -1) {
      const status = failures.splice(failure, 1)[0]!.status;
      return googleError(
        res,
        status,
        status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'UNAVAILABLE' : 'FAILED_PRECONDITION',
        `Simulated ${status}`,
      );
    }

    if (path === '/token') {
      if (request.method !== 'POST') return googleError(res, 405, 'METHOD_NOT_ALLOWED', 'POST only');
      if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
        return send(res, 400, { error: 'invalid_request', error_description: 'form body expected' });
      const form = new URLSearchParams(request.rawBody);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return send(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
      try {
        const assertion = form.get('assertion') ?? '';
        // Checked at the assertion's own issue time (tests drive the service's clock), for at most the hour Google allows.
        const { payload, protectedHeader } = await jwtVerify(assertion, publicKey, {
          algorithms: ['RS256'],
          audience: tokenUri,
          issuer: state.serviceAccountKey.client_email,
          currentDate: new Date((decodeJwt(assertion).iat ?? 0) * 1000),
          maxTokenAge: '1h',
          requiredClaims: ['iat', 'exp'],
        });
        if (protectedHeader.kid !== state.serviceAccountKey.private_key_id) throw new Error('kid');
        if (
          !String(payload.scope ?? '')
            .split(' ')
            .includes('https://www.googleapis.com/auth/cloud-platform')
        )
          throw new Error('scope');
        const accessToken = `ya29.fake-${grants.length + 1}`;
        grants.push({ claims: payload as Record<string, unknown>, accessToken });
        valid.add(accessToken);
        return send(res, 200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
      } catch {
        return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
    }

    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!bearer || !valid.has(bearer)) {
      return googleError(
        res,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    const parent = `projects/${FAKE_NOTEBOOKLM_PROJECT}/locations/${FAKE_NOTEBOOKLM_LOCATION}`;

    if (request.method === 'POST' && path === `/v1alpha/${parent}/notebooks`) {
      if (typeof body.title !== 'string') return googleError(res, 400, 'INVALID_ARGUMENT', 'title must be a string');
      const notebookId = `nb-${++notebooks}`;
      return send(res, 200, {
        title: body.title,
        notebookId,
        emoji: '',
        metadata: { userRole: 'PROJECT_ROLE_OWNER', isShared: false, isShareable: true },
        name: `${parent}/notebooks/${notebookId}`,
      });
    }
    const sourcesMatch = new RegExp(`^/v1alpha/${parent}/notebooks/([^/]+)/sources:batchCreate$`).exec(path);
    if (request.method === 'POST' && sourcesMatch) {
      const contents = Array.isArray(body.userContents) ? (body.userContents as Array<Record<string, unknown>>) : [];
      const text = contents[0]?.textContent as { sourceName?: unknown; content?: unknown } | undefined;
      if (!text || typeof text.content !== 'string' || text.content.length === 0)
        return googleError(res, 400, 'INVALID_ARGUMENT', 'userContents[0].textContent.content is required');
      const id = `src-${++sources}`;
      return send(res, 200, {
        sources: [{ sourceId: { id }, title: text.sourceName, name: `${parent}/notebooks/${sourcesMatch[1]}/sources/${id}` }],
      });
    }
    const audioMatch = new RegExp(`^/v1alpha/${parent}/notebooks/([^/]+)/audioOverviews$`).exec(path);
    if (request.method === 'POST' && audioMatch) {
      const generationOptions = (body.generationOptions ?? {}) as Record<string, unknown>;
      return send(res, 200, {
        audioOverview: {
          status: 'AUDIO_OVERVIEW_STATUS_IN_PROGRESS',
          audioOverviewId: 'default',
          name: `${parent}/notebooks/${audioMatch[1]}/audioOverviews/default`,
          generationOptions,
        },
      });
    }

    if (request.method === 'POST' && path === `/v1/${parent}/podcasts`) {
      const config = body.podcastConfig as Record<string, unknown> | undefined;
      const contexts = Array.isArray(body.contexts) ? (body.contexts as Array<Record<string, unknown>>) : [];
      if (!config || !PODCAST_LENGTHS.includes(String(config.length)))
        return googleError(res, 400, 'INVALID_ARGUMENT', 'podcastConfig.length must be SHORT or STANDARD');
      if (contexts.length === 0 || contexts.some((context) => typeof context.text !== 'string' || context.text.length === 0))
        return googleError(res, 400, 'INVALID_ARGUMENT', 'contexts must hold text');
      const id = `podcast-${podcasts.length + 1}`;
      const podcast = { id, operationName: `${parent}/podcasts/${id}/operations/op-${podcasts.length + 1}`, request: body, polls: 0 };
      podcasts.push(podcast);
      return send(res, 200, {
        name: podcast.operationName,
        metadata: { '@type': 'type.googleapis.com/google.cloud.discoveryengine.v1.PodcastMetadata' },
      });
    }
    const download = /^\/v1\/(.+):download$/.exec(path);
    const podcastOf = (name: string) => podcasts.find((p) => p.operationName === name);
    if (request.method === 'GET' && download) {
      if (url.searchParams.get('alt') !== 'media') return googleError(res, 400, 'INVALID_ARGUMENT', 'alt=media is required');
      const podcast = podcastOf(download[1]!);
      if (!podcast || podcast.polls < state.pollsUntilDone) return googleError(res, 404, 'NOT_FOUND', 'podcast not ready');
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      return res.end(fakeMp3(24));
    }
    const operation = /^\/v1\/(.+\/operations\/[^/]+)$/.exec(path);
    if (request.method === 'GET' && operation) {
      const podcast = podcastOf(operation[1]!);
      if (!podcast) return googleError(res, 404, 'NOT_FOUND', 'operation not found');
      podcast.polls += 1;
      if (podcast.polls < state.pollsUntilDone) return send(res, 200, { name: podcast.operationName, done: false });
      if (failNext !== null) {
        const message = failNext;
        failNext = null;
        podcast.polls = -1_000_000; // never downloadable
        return send(res, 200, { name: podcast.operationName, done: true, error: { code: 13, message } });
      }
      return send(res, 200, {
        name: podcast.operationName,
        done: true,
        response: { '@type': 'type.googleapis.com/google.cloud.discoveryengine.v1.Podcast', name: `${parent}/podcasts/${podcast.id}` },
      });
    }
    return googleError(res, 404, 'NOT_FOUND', `no route for ${request.method} ${path}`);
  };

  const server = createServer((req, res) => {
    void recordRequest(req).then(
      async (request) => {
        requests.push(request);
        try {
          await handle(req, res, request);
        } catch (error) {
          googleError(res, 500, 'INTERNAL', String(error));
        }
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tokenUri = `${baseUrl}/token`;
  const generated = await fakeServiceAccountKey(tokenUri);
  publicKey = generated.publicKey;

  const state: FakeNotebookLm = {
    baseUrl,
    tokenUri,
    serviceAccountKey: generated.key,
    requests,
    grants,
    podcasts,
    pollsUntilDone: options.pollsUntilDone ?? 1,
    failNextOperation(message) {
      failNext = message;
    },
    expireIssuedTokens() {
      valid.clear();
    },
    acceptToken(token) {
      valid.add(token);
    },
    failNext(route, status, times = 1) {
      for (let i = 0; i < times; i++) failures.push({ route, status });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}
