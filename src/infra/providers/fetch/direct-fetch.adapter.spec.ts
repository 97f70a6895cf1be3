import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeProvider, startFakeProvider } from '../../../../test/fakes/fake-provider-servers';
import { DirectFetchAdapter } from './direct-fetch.adapter';
import type { Resolve } from '../http/page-dispatcher';
import { nonPublicReason } from '../http/public-address';
import { EngineFailure } from '../../../domain/failures';
import { ProviderTransientError, ProviderFailure } from '../provider-errors';

const loopback: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];

describe('DirectFetchAdapter (fetch-a)', () => {
  let web: FakeProvider;
  const adapter = new DirectFetchAdapter({ allowPrivateNetwork: true, timeoutMs: 5000 });

  beforeEach(async () => {
    web = await startFakeProvider('web');
  });
  afterEach(() => web.close());

  it('GETs the page and reduces the HTML to its title and text', async () => {
    const page = await adapter.fetch(`${web.baseUrl}/page`);
    expect(page).toEqual({
      url: `${web.baseUrl}/page`,
      status: 200,
      title: 'Final rules – Regulator',
      text: 'Home\nFinal rules\nThe final rules apply from 1 July 2026 & replace the interim regime.\nFirst\nSecond',
    });
    expect(adapter.provider).toBe('fetch-a');
    expect(web.requests[0].method).toBe('GET');
    expect(web.requests[0].headers['user-agent']).toMatch(/bot/i);
  });

  it('follows redirects and reports the final URL', async () => {
    const page = await adapter.fetch(`${web.baseUrl}/redirect`);
    expect(page.url).toBe(`${web.baseUrl}/page`);
    expect(page.status).toBe(200);
    expect(web.requests.map((request) => request.path)).toEqual(['/redirect', '/page']);
  });

  it('gives up on redirect loops', async () => {
    await expect(adapter.fetch(`${web.baseUrl}/redirect-loop`)).rejects.toThrow(/redirects/);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const fake = await startFakeProvider('web', () => ({ status: 302, headers: { location: 'file:///etc/passwd' }, raw: '' }));
    try {
      await expect(adapter.fetch(`${fake.baseUrl}/x`)).rejects.toThrow(/only http and https/);
    } finally {
      await fake.close();
    }
  });

  it('returns plain text as is, and an empty text for 404s and binary content', async () => {
    expect(await adapter.fetch(`${web.baseUrl}/text`)).toMatchObject({ status: 200, title: null, text: 'Plain text page.' });
    expect(await adapter.fetch(`${web.baseUrl}/missing`)).toMatchObject({ status: 404, title: null, text: '' });
    expect(await adapter.fetch(`${web.baseUrl}/pdf`)).toMatchObject({ status: 200, title: null, text: '' });
  });

  it('reads at most maxBytes', async () => {
    const fake = await startFakeProvider('web', () => ({ raw: 'a'.repeat(50_000), headers: { 'content-type': 'text/plain' } }));
    try {
      const small = new DirectFetchAdapter({ allowPrivateNetwork: true, maxBytes: 1000 });
      expect((await small.fetch(`${fake.baseUrl}/big`)).text).toHaveLength(1000);
    } finally {
      await fake.close();
    }
  });

  it('decodes the declared charset', async () => {
    const fake = await startFakeProvider('web', () => ({
      raw: Buffer.from('<title>Caf\xe9</title><p>d\xe9cision</p>', 'latin1'),
      headers: { 'content-type': 'text/html; charset=iso-8859-1' },
    }));
    try {
      const page = await adapter.fetch(`${fake.baseUrl}/`);
      expect(page.title).toBe('Café');
      expect(page.text).toBe('décision');
    } finally {
      await fake.close();
    }
  });

  it('only fetches http and https URLs', async () => {
    await expect(adapter.fetch('ftp://example.org/file')).rejects.toThrow(EngineFailure);
    await expect(adapter.fetch('not a url')).rejects.toThrow(EngineFailure);
  });

  it('429 and 5xx are transient, as are timeouts', async () => {
    web.failNext(503);
    await expect(adapter.fetch(`${web.baseUrl}/page`)).rejects.toThrow(ProviderTransientError);
    web.failNext(429);
    await expect(adapter.fetch(`${web.baseUrl}/page`)).rejects.toThrow(/429/);
    web.failNext('timeout');
    const quick = new DirectFetchAdapter({ allowPrivateNetwork: true, timeoutMs: 200 });
    await expect(quick.fetch(`${web.baseUrl}/page`)).rejects.toThrow(/timed out/);
  });

  describe('without allowPrivateNetwork', () => {
    let port: string;
    beforeEach(() => {
      port = new URL(web.baseUrl).port;
    });

    it.each([
      ['loopback', 'http://127.0.0.1:PORT/page'],
      ['loopback in hex', 'http://0x7f.1:PORT/page'],
      ['loopback as a number', 'http://2130706433:PORT/page'],
      ['localhost', 'http://localhost:PORT/page'],
      ['unspecified', 'http://0.0.0.0:PORT/page'],
      ['IPv6 loopback', 'http://[::1]:PORT/page'],
      ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]:PORT/page'],
      ['IPv4-mapped metadata in hex', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/'],
      ['IPv4-compatible loopback', 'http://[::127.0.0.1]:PORT/page'],
      ['NAT64 metadata', 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/'],
      ['6to4 loopback', 'http://[2002:7f00:1::1]:PORT/page'],
      ['link-local metadata', 'http://169.254.169.254/latest/meta-data/'],
      ['IPv6 metadata', 'http://[fd00:ec2::254]/latest/meta-data/'],
      ['Alibaba metadata (CGNAT)', 'http://100.100.100.200/latest/meta-data/'],
      ['private', 'http://10.0.0.1/'],
      ['unique-local', 'http://[fd12::1]/'],
    ])('refuses %s in the URL before connecting', async (_name, template) => {
      const strict = new DirectFetchAdapter({ timeoutMs: 1000 });
      const url = template.replace('PORT', port);
      const refusal = strict.fetch(url);
      await expect(refusal).rejects.toThrow(ProviderFailure);
      await expect(refusal).rejects.toThrow(/^fetch-a: refusing to fetch \S+: not a public address \(.+\)$/);
      expect(web.requests).toHaveLength(0);
    });

    it('refuses a name that resolves inward, without connecting', async () => {
      const resolve = jest.fn(loopback);
      const strict = new DirectFetchAdapter({ resolve, timeoutMs: 1000 });
      await expect(strict.fetch(`http://inward.example:${port}/page`)).rejects.toThrow(
        new ProviderFailure('fetch-a: refusing to fetch inward.example: resolves to 127.0.0.1 (loopback)', 'fetch-a', null),
      );
      expect(resolve).toHaveBeenCalledWith('inward.example', expect.objectContaining({ all: true }));
      expect(web.requests).toHaveLength(0);
    });

    it('refuses a name when any one of its addresses is inward', async () => {
      const strict = new DirectFetchAdapter({
        timeoutMs: 1000,
        resolve: async () => [
          { address: '93.184.215.14', family: 4 },
          { address: '::ffff:a9fe:a9fe', family: 6 },
        ],
      });
      await expect(strict.fetch('http://mixed.example/')).rejects.toThrow(
        /mixed\.example: resolves to ::ffff:a9fe:a9fe \(IPv4-mapped link-local\)/,
      );
    });

    it('connects by name through the checked lookup, keeping the Host header', async () => {
      const asPublic = new DirectFetchAdapter({
        resolve: loopback,
        refuseAddress: (address, host) => (host === 'public.example' ? null : nonPublicReason(address)),
      });
      const page = await asPublic.fetch(`http://public.example:${port}/page`);
      expect(page).toMatchObject({ url: `http://public.example:${port}/page`, status: 200, title: 'Final rules – Regulator' });
      expect(web.requests[0].headers.host).toBe(`public.example:${port}`);
    });

    it('checks every redirect hop: a public host cannot redirect inward', async () => {
      const redirecting = await startFakeProvider('web', (request) =>
        request.path === '/hop' ? { status: 302, headers: { location: `http://inward.example:${port}/page` }, raw: '' } : undefined,
      );
      try {
        const hopPort = new URL(redirecting.baseUrl).port;
        // public.example stands in for a public host: the policy lets its (loopback) address through, nothing else.
        const asPublic = new DirectFetchAdapter({
          timeoutMs: 1000,
          resolve: loopback,
          refuseAddress: (address, host) => (host === 'public.example' ? null : nonPublicReason(address)),
        });
        await expect(asPublic.fetch(`http://public.example:${hopPort}/hop`)).rejects.toThrow(
          /^fetch-a: refusing to fetch inward\.example: resolves to 127\.0\.0\.1 \(loopback\)$/,
        );
        expect(redirecting.requests.map((request) => request.path)).toEqual(['/hop']);
        expect(web.requests).toHaveLength(0);
      } finally {
        await redirecting.close();
      }
    });

    it('treats a name that does not resolve as a network error, as before', async () => {
      const strict = new DirectFetchAdapter({
        timeoutMs: 1000,
        resolve: () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND gone.example'), { code: 'ENOTFOUND' })),
      });
      await expect(strict.fetch('http://gone.example/')).rejects.toThrow(ProviderTransientError);
      await expect(strict.fetch('http://gone.example/')).rejects.toThrow(/network error: ENOTFOUND/);
    });
  });

  describe('through an egress proxy', () => {
    let proxy: Server;
    let proxyUrl: string;
    let proxied: { url: string; headers: IncomingHttpHeaders }[];
    beforeEach(async () => {
      proxied = [];
      proxy = createServer((req, res) => {
        proxied.push({ url: req.url ?? '', headers: req.headers });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('via proxy');
      });
      proxy.listen(0, '127.0.0.1');
      await once(proxy, 'listening');
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      proxy.closeAllConnections();
      proxy.close();
      await once(proxy, 'close');
    });

    it('sends page requests to the proxy and leaves name resolution to it', async () => {
      const resolve = jest.fn(loopback);
      const viaProxy = new DirectFetchAdapter({ proxyUrl, resolve, timeoutMs: 2000 });
      const page = await viaProxy.fetch('http://regulator.example/notice');
      expect(page).toMatchObject({ status: 200, text: 'via proxy' });
      expect(proxied).toEqual([expect.objectContaining({ url: 'http://regulator.example/notice' })]);
      expect(proxied[0].headers.host).toBe('regulator.example');
      expect(resolve).not.toHaveBeenCalled();
    });

    it('still refuses literal inward addresses', async () => {
      const viaProxy = new DirectFetchAdapter({ proxyUrl, timeoutMs: 2000 });
      await expect(viaProxy.fetch('http://[::ffff:a9fe:a9fe]/latest/meta-data/')).rejects.toThrow(/refusing to fetch/);
      await expect(viaProxy.fetch('http://localhost/')).rejects.toThrow(/refusing to fetch localhost/);
      expect(proxied).toHaveLength(0);
    });
  });
});
