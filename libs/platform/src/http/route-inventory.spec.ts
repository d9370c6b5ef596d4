import { allowedMethods, RouteInfo } from './route-inventory';

const route = (method: string, path: string) => ({ method, path }) as RouteInfo;
const ROUTES = [route('GET', '/agents'), route('POST', '/agents'), route('GET', '/agents/:id'), route('PATCH', '/agents/:id'), route('DELETE', '/agents/:id'), route('POST', '/agents/:id/duplicate'), route('GET', '/v1.2/x')];

describe('allowedMethods', () => {
  it('lists the methods of every route whose pattern matches the concrete path (HEAD with GET)', () => {
    expect(allowedMethods(ROUTES, '/agents')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethods(ROUTES, '/agents/5b3f1c1e')).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
    expect(allowedMethods(ROUTES, '/agents/5b3f1c1e/')).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
    expect(allowedMethods(ROUTES, '/agents/5b3f1c1e/duplicate')).toEqual(['POST']);
  });

  it('matches nothing for an unknown path, and takes a dot in a route literally', () => {
    expect(allowedMethods(ROUTES, '/nope')).toEqual([]);
    expect(allowedMethods(ROUTES, '/agents/a/b/c')).toEqual([]);
    expect(allowedMethods(ROUTES, '/v1x2/x')).toEqual([]);
    expect(allowedMethods(ROUTES, '/v1.2/x')).toEqual(['GET', 'HEAD']);
  });
});
