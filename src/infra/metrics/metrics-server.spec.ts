import { isAuthorizedScrape } from './metrics-server';

describe('isAuthorizedScrape', () => {
  const token = 'scrape-token-0123456789';

  it('lets every scrape through when no token is configured', () => {
    expect(isAuthorizedScrape(undefined, undefined)).toBe(true);
    expect(isAuthorizedScrape('Bearer anything', undefined)).toBe(true);
  });

  it('wants exactly "Bearer <token>" when one is', () => {
    expect(isAuthorizedScrape(`Bearer ${token}`, token)).toBe(true);
    expect(isAuthorizedScrape(`bearer ${token}`, token)).toBe(true);
    expect(isAuthorizedScrape(undefined, token)).toBe(false);
    expect(isAuthorizedScrape(`Bearer ${token}x`, token)).toBe(false);
    expect(isAuthorizedScrape(`Bearer ${token.slice(1)}`, token)).toBe(false);
    expect(isAuthorizedScrape(`Basic ${token}`, token)).toBe(false);
    expect(isAuthorizedScrape(token, token)).toBe(false);
  });
});
