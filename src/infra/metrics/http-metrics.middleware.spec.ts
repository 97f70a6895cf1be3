import { httpMethodLabel, httpRouteLabel } from './http-metrics.middleware';

describe('httpRouteLabel', () => {
  it('is the template of the route that matched, never the URL', () => {
    expect(httpRouteLabel({ route: { path: '/v1/snapshots/:id' }, baseUrl: '' })).toBe('/v1/snapshots/:id');
    expect(httpRouteLabel({ route: { path: '/:id' }, baseUrl: '/v1/scans' })).toBe('/v1/scans/:id');
  });

  it('is one fixed value when no route matched, so unknown URLs add no series', () => {
    expect(httpRouteLabel({})).toBe('(unmatched)');
    expect(httpRouteLabel({ route: { path: /regexp/ } })).toBe('(unmatched)');
  });
});

describe('httpMethodLabel', () => {
  it('keeps the standard methods and folds anything else into one value', () => {
    expect(httpMethodLabel('GET')).toBe('GET');
    expect(httpMethodLabel('delete')).toBe('DELETE');
    expect(httpMethodLabel('PROPFIND')).toBe('OTHER');
    expect(httpMethodLabel(undefined)).toBe('OTHER');
  });
});
