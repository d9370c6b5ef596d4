import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { listRoutes } from '@outreach/platform';
import { getMetadataStorage } from 'class-validator';
import { bearer, TestApp } from '../support/test-app';

describe('operations endpoints', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t.close());

  it('/health/live and /health/ready answer without a key', async () => {
    const live = await t.http.get('/health/live');
    expect([live.status, live.body.status]).toEqual([200, 'ok']);
    const ready = await t.http.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ postgres: { status: 'up' }, redis: { status: 'up' } });
  });

  it('/metrics exposes the request duration histogram by route and status', async () => {
    await t.reset();
    const ws = await t.seed();
    await t.http.get('/v1/workspace').set(bearer(ws.key)).expect(200);
    await t.http.get('/v1/workspace').expect(401);
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/workspace",status="200"\} \d+/);
    expect(res.text).toMatch(/route="\/v1\/workspace",status="401"/);
  });

  it('OpenAPI: /docs-json describes every route with bearer auth, /docs serves the UI', async () => {
    const doc = await t.http.get('/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body.info.version).toBe('1.0.0');
    expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
    }
    const missing = listRoutes(t.app)
      .filter((r) => r.path !== '/metrics')
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !documented.has(r));
    expect(missing).toEqual([]);
    expect(doc.body.paths['/v1/workspace'].get.security).toEqual([{ bearer: [] }]);
    const ui = await t.http.get('/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger-ui');
  });

  it('OpenAPI lists every validated member of every body and query DTO (the fuzzer relies on it)', async () => {
    const doc = await t.http.get('/docs-json');
    const schemas = doc.body.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    expect(Object.keys(schemas.WorkspaceResponse.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'name', 'status', 'concurrency', 'features', 'currency']),
    );
    const dtos = requestDtoClasses(t);
    const problems: string[] = [];
    for (const { cls, kind } of dtos) {
      const members = validatedMembers(cls);
      if (kind === 'query') {
        // query DTO members become parameters, not schemas
        const params = new Set<string>();
        for (const ops of Object.values(doc.body.paths as Record<string, Record<string, { parameters?: { name: string }[] }>>)) {
          for (const op of Object.values(ops)) for (const p of op.parameters ?? []) params.add(p.name);
        }
        for (const m of members) if (!params.has(m)) problems.push(`${cls.name}.${m} (query) not documented`);
        continue;
      }
      const schema = schemas[cls.name];
      if (!schema) {
        problems.push(`${cls.name} has no schema`);
        continue;
      }
      for (const m of members) if (!(m in (schema.properties ?? {}))) problems.push(`${cls.name}.${m} not documented`);
    }
    expect(problems).toEqual([]);
  });
});

type Cls = new (...args: never[]) => unknown;

/** The classes bound with @Body() or @Query() in every controller of the app, and nested DTOs. */
function requestDtoClasses(t: TestApp): Array<{ cls: Cls; kind: 'body' | 'query' }> {
  const found = new Map<Cls, 'body' | 'query'>();
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const type = wrapper.metatype as Cls | undefined;
      if (!type) continue;
      for (const name of Object.getOwnPropertyNames(type.prototype)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, type, name) ?? {}) as Record<string, { index: number }>;
        const paramTypes = (Reflect.getMetadata('design:paramtypes', type.prototype, name) ?? []) as Cls[];
        for (const [key, { index }] of Object.entries(args)) {
          const kind = key.startsWith('3:') ? 'body' : key.startsWith('4:') ? 'query' : null;
          const cls = paramTypes[index];
          if (kind && cls && ![Object, String, Number, Array].includes(cls as never)) found.set(cls, kind);
        }
      }
    }
  }
  // nested body DTOs (@ValidateNested + @Type) must be documented as schemas too
  const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
    defaultMetadataStorage: { findTypeMetadata(target: Cls, property: string): { typeFunction: () => Cls } | undefined };
  };
  const queue = [...found.entries()].filter(([, k]) => k === 'body').map(([c]) => c);
  while (queue.length > 0) {
    const cls = queue.pop()!;
    for (const m of validatedMembers(cls)) {
      const nested = defaultMetadataStorage.findTypeMetadata(cls, m)?.typeFunction();
      if (nested && !found.has(nested) && ![Object, String, Number, Date, Boolean].includes(nested as never)) {
        found.set(nested, 'body');
        queue.push(nested);
      }
    }
  }
  return [...found.entries()].map(([cls, kind]) => ({ cls, kind }));
}

function validatedMembers(cls: Cls): string[] {
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  return [...new Set(metas.map((m) => m.propertyName))];
}
