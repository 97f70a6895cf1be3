import { EngineFailure, TransientProviderError } from '../engine.types';
import { FakeProvider, startFakeProvider } from './fake-servers';
import { DirectFetchAdapter, isPrivateHost } from './fetch-a.adapter';

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

  it('refuses private and loopback addresses unless allowed', async () => {
    const strict = new DirectFetchAdapter();
    await expect(strict.fetch(`${web.baseUrl}/page`)).rejects.toThrow(/private or loopback/);
    expect(web.requests).toHaveLength(0);
    for (const host of [
      'localhost',
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '172.20.0.1',
      '192.168.1.1',
      '[::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
    ]) {
      expect(isPrivateHost(host)).toBe(true);
    }
    for (const host of ['eur-lex.europa.eu', '8.8.8.8', '172.32.0.1', '[2001:db8::1]']) expect(isPrivateHost(host)).toBe(false);
  });

  it('429 and 5xx are transient, as are timeouts', async () => {
    web.failNext(503);
    await expect(adapter.fetch(`${web.baseUrl}/page`)).rejects.toThrow(TransientProviderError);
    web.failNext(429);
    await expect(adapter.fetch(`${web.baseUrl}/page`)).rejects.toThrow(/429/);
    web.failNext('timeout');
    const quick = new DirectFetchAdapter({ allowPrivateNetwork: true, timeoutMs: 200 });
    await expect(quick.fetch(`${web.baseUrl}/page`)).rejects.toThrow(/timed out/);
  });
});
