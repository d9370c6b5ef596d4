import { listRoutes } from '@outreach/platform';
import { TestApp } from '../support/test-app';

describe('route inventory', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t.close());

  it('every registered route declares its access (scope, any-key or public)', () => {
    const routes = listRoutes(t.app);
    expect(routes.length).toBeGreaterThan(0);
    const undeclared = routes.filter((r) => !r.rule).map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`);
    expect(undeclared).toEqual([]);
  });

  it('any-key routes live under /v1 (a scope-less key may call /v1 only)', () => {
    const outside = listRoutes(t.app)
      .filter((r) => r.rule?.kind === 'any-key' && !r.path.startsWith('/v1/') && r.path !== '/v1')
      .map((r) => `${r.method} ${r.path}`);
    expect(outside).toEqual([]);
  });

  it('only health, metrics, provider webhooks (voice, CRM: authenticated by their signature) and the chatbot widget (by its embed key) are public', () => {
    const pub = listRoutes(t.app)
      .filter((r) => r.rule?.kind === 'public')
      .map((r) => r.path);
    expect(pub.filter((p) => !(p.startsWith('/health') || p === '/metrics' || p.startsWith('/webhooks/') || p.startsWith('/crm/webhooks/') || p === '/embed/chat'))).toEqual([]);
    expect(pub).toContain('/webhooks/voice/:provider');
    expect(pub).toContain('/crm/webhooks/:connectionId');
  });

  it('finds a route that lacks a declaration (the check can fail)', async () => {
    const { Controller, Get, Module } = await import('@nestjs/common');
    @Controller('undeclared')
    class UndeclaredController {
      @Get()
      get() {
        return {};
      }
    }
    @Module({ controllers: [UndeclaredController] })
    class UndeclaredModule {}
    const other = await TestApp.create({ imports: [UndeclaredModule] });
    try {
      const undeclared = listRoutes(other.app).filter((r) => !r.rule);
      expect(undeclared.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /undeclared']);
      // and the guard refuses to serve it rather than letting it through
      const res = await other.http.get('/undeclared');
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('internal_error');
    } finally {
      await other.close();
    }
  });
});
