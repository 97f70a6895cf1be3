import { FAKE_API_KEY, FakeProvider, startFakeProvider } from '../../../../test/fakes/fake-provider-servers';
import { ReaderFetchAdapter, parseReaderText } from './reader-fetch.adapter';
import { EngineFailure } from '../../../domain/failures';
import { ProviderTransientError } from '../provider-errors';

describe('ReaderFetchAdapter (fetch-b)', () => {
  let reader: FakeProvider;
  afterEach(() => reader?.close());

  it('GETs {base}/{url} and parses the reader header lines', async () => {
    reader = await startFakeProvider('reader');
    const adapter = new ReaderFetchAdapter({ baseUrl: reader.baseUrl });
    const page = await adapter.fetch('https://eur-lex.europa.eu/eli/reg/2024/1624/oj?lang=en');
    expect(page).toEqual({
      url: 'https://eur-lex.europa.eu/eli/reg/2024/1624/oj?lang=en',
      status: 200,
      title: 'Page at /eli/reg/2024/1624/oj',
      text: 'Regulation text for https://eur-lex.europa.eu/eli/reg/2024/1624/oj?lang=en.\n\nArticle 1\nThis Regulation applies from 1 July 2026.',
    });
    expect(adapter.provider).toBe('fetch-b');
    const [request] = reader.requests;
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/https://eur-lex.europa.eu/eli/reg/2024/1624/oj?lang=en');
    expect(request.headers.authorization).toBeUndefined();
  });

  it('sends the optional key as a Bearer token, and a rejected key is an EngineFailure without the key', async () => {
    reader = await startFakeProvider('reader', undefined, { apiKey: FAKE_API_KEY });
    await new ReaderFetchAdapter({ baseUrl: reader.baseUrl, apiKey: FAKE_API_KEY }).fetch('https://example.org/');
    expect(reader.requests[0].headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    const error = await new ReaderFetchAdapter({ baseUrl: reader.baseUrl, apiKey: 'wrong-reader-key-123' })
      .fetch('https://example.org/')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineFailure);
    expect((error as Error).message).toMatch(/401/);
    expect((error as Error).message).not.toContain('wrong-reader-key-123');
  });

  it('maps 429, 5xx and timeouts to ProviderTransientError and other 4xx to an empty page', async () => {
    reader = await startFakeProvider('reader');
    const adapter = new ReaderFetchAdapter({ baseUrl: reader.baseUrl, timeoutMs: 200 });
    reader.failNext(429);
    await expect(adapter.fetch('https://example.org/')).rejects.toThrow(ProviderTransientError);
    reader.failNext(502);
    await expect(adapter.fetch('https://example.org/')).rejects.toThrow(/502/);
    reader.failNext('timeout');
    await expect(adapter.fetch('https://example.org/')).rejects.toThrow(/timed out/);
    reader.failNext(422);
    expect(await adapter.fetch('https://example.org/')).toEqual({ url: 'https://example.org/', status: 422, title: null, text: '' });
  });

  it('only fetches http and https URLs', async () => {
    reader = await startFakeProvider('reader');
    await expect(new ReaderFetchAdapter({ baseUrl: reader.baseUrl }).fetch('javascript:alert(1)')).rejects.toThrow(EngineFailure);
    expect(reader.requests).toHaveLength(0);
  });

  it('parses bodies with and without reader headers', () => {
    expect(parseReaderText('Title: A\nURL Source: https://x.org/final\nMarkdown Content:\n# Heading\nBody', 'https://x.org/')).toEqual({
      url: 'https://x.org/final',
      title: 'A',
      text: '# Heading\nBody',
    });
    expect(parseReaderText('Just text\nTitle: not a header', 'https://x.org/')).toEqual({
      url: 'https://x.org/',
      title: null,
      text: 'Just text\nTitle: not a header',
    });
  });
});
