// The OpenAPI document's quality (issue 20, item 2; decisions.md 1.14-1.17): every operation has
// a stable camelCase operationId, its module's tag, a summary, examples, and every status and
// error code it can answer; the request schemas say what the validators enforce; plus one
// assertion per finding of the review (integers, empty PATCH, Idempotency-Key once, campaign-type
// keys, DNC reason null, path parameters, bearer format, the voice preview's 501).
import { NestFactory } from '@nestjs/core';
import { errorDefinition, ErrorCode, isErrorCode, moduleTag, OpenApiDocument, OperationObject, SchemaObject } from '@outreach/platform';
import Ajv from 'ajv';
import { getMetadataStorage } from 'class-validator';
import { ApiModule } from '../../apps/api/src/api.module';
import { TestApp } from '../support/test-app';

type Op = { method: string; path: string; op: OperationObject };

const operations = (doc: OpenApiDocument): Op[] =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));

const resolve = (doc: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject | undefined =>
  schema?.$ref ? doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')] : schema;

/** The `error` codes a documented error response lists (and the `code` of the lead push refusal). */
function codesOf(schema: SchemaObject | undefined): string[] {
  if (!schema) return [];
  const alternatives = schema.oneOf ?? [schema];
  return alternatives.flatMap((alt) => {
    if (alt.$ref?.endsWith('/CodeKeyedErrorResponse')) return ['campaign_not_accepting'];
    const own = alt.allOf?.find((part) => part.properties?.error);
    return (own?.properties?.error?.enum ?? []) as string[];
  });
}

const errorCodes = (op: OperationObject, status: number) => codesOf(op.responses[String(status)]?.content?.['application/json']?.schema);

describe('OpenAPI document (/docs-json)', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await TestApp.create();
    doc = (await t.http.get('/docs-json').expect(200)).body as OpenApiDocument;
  });
  afterAll(() => t.close());

  it('is the document npm run lint:openapi writes (built without a database or a port)', async () => {
    const { openApiDocument } = await import('@outreach/platform');
    const preview = await NestFactory.create(ApiModule, { preview: true, logger: false, abortOnError: false });
    expect(JSON.parse(JSON.stringify(openApiDocument(preview)))).toEqual(doc);
  });

  it('every operation: a unique camelCase operationId, one module tag, a summary', () => {
    const ids = operations(doc).map((o) => o.op.operationId);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(String(id)))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set((doc.tags ?? []).map((tag) => tag.name));
    const problems: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      if (op.tags?.length !== 1 || !tags.has(op.tags[0])) problems.push(`${method} ${path}: tags ${JSON.stringify(op.tags)}`);
      if (!op.summary?.trim()) problems.push(`${method} ${path}: no summary`);
    }
    expect(problems).toEqual([]);
    expect(doc.paths['/v1/campaigns/{id}/start'].post.operationId).toBe('campaignsStartV1');
    expect(doc.paths['/campaigns/{id}/start'].post.operationId).toBe('campaignsStart');
    expect(doc.paths['/credits/balance'].get.tags).toEqual([moduleTag('BillingHttpModule')]);
    expect(doc.paths['/campaign-types'].post.tags).toEqual(['campaigns']);
  });

  it('every authenticated operation answers the common codes (decisions.md 1.9 order of checks)', () => {
    const problems: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      if (!op.security?.length || JSON.stringify(op.security) === '[{}]') continue;
      const expected: Array<[number, string]> = [
        [401, 'unauthorized'],
        [401, 'invalid_api_key'],
        [403, 'workspace_suspended'],
        [403, 'workspace_pending_approval'],
        [403, 'api_key_owner_inactive'],
        [429, 'rate_limited'],
        [503, 'database_unavailable'],
        [500, 'internal_error'],
        // any request may carry a broken JSON body, even one the route does not read (decisions.md 1.14)
        [400, 'internal_error'],
        [413, 'internal_error'],
        [400, 'invalid_body'],
      ];
      if (!path.startsWith('/v1/')) expected.push([403, 'api_key_not_scoped'], [403, 'forbidden']);
      if (op.parameters?.some((p) => p.in === 'query')) expected.push([400, 'invalid_query']);
      for (const [status, code] of expected) {
        // invalid_body is 422 where the route says so (the lead push)
        const statuses = code === 'invalid_body' ? [400, 422] : [status];
        if (!statuses.some((s) => errorCodes(op, s).includes(code))) problems.push(`${method} ${path}: ${status} ${code}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every error response lists codes the catalogue allows at that status, with one example each', () => {
    const problems: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      for (const [key, response] of Object.entries(op.responses)) {
        const status = Number(key);
        if (status < 400 || path.startsWith('/health')) continue;
        const media = response.content?.['application/json'];
        const codes = codesOf(media?.schema);
        if (codes.length === 0) problems.push(`${method} ${path} ${status}: no error enum`);
        for (const code of codes) {
          if (!isErrorCode(code)) {
            problems.push(`${method} ${path} ${status}: unknown code ${code}`);
            continue;
          }
          const definition = errorDefinition(code as ErrorCode);
          if (![definition.status, ...(definition.also ?? [])].includes(status)) problems.push(`${method} ${path}: ${code} never answers ${status}`);
          if (!media?.examples?.[code]) problems.push(`${method} ${path} ${status}: no example for ${code}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every JSON request body and success answer has an example that meets its schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const problems: string[] = [];
    const check = (where: string, schema: SchemaObject | undefined, example: unknown) => {
      if (!schema) return;
      if (example === undefined) return problems.push(`${where}: no example`);
      const validate = ajv.compile({ components: doc.components, ...schema });
      if (!validate(example)) problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    for (const { method, path, op } of operations(doc)) {
      const body = op.requestBody?.content['application/json'];
      if (body) check(`${method} ${path} body`, body.schema, body.example);
      for (const [status, response] of Object.entries(op.responses)) {
        const media = response.content?.['application/json'];
        if (Number(status) < 400 && media) check(`${method} ${path} ${status}`, media.schema, media.example);
      }
    }
    expect(problems).toEqual([]);
  });

  it('request schemas say what their validators enforce: integer, minLength, uuid/uri, null, no unknown members', () => {
    const schemas = doc.components?.schemas ?? {};
    const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Function, unknown[]> };
    const problems: string[] = [];
    let checked = 0;
    for (const cls of storage.validationMetadatas.keys()) {
      const schema = schemas[cls.name];
      if (!schema?.properties) continue;
      checked++;
      if (schema.additionalProperties !== false) problems.push(`${cls.name}: unknown members are refused but not declared so`);
      for (const rule of getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)) {
        let member = schema.properties[rule.propertyName];
        if (!member) continue;
        if (member.anyOf) member = resolve(doc, member.anyOf[0]) ?? member;
        const target = rule.each && member.items ? member.items : member;
        const where = `${cls.name}.${rule.propertyName}`;
        if (rule.name === 'isInt' && target.type !== 'integer') problems.push(`${where}: validated as an integer, documented ${target.type}`);
        if (rule.name === 'isUuid' && target.format !== 'uuid') problems.push(`${where}: validated as a UUID`);
        if (rule.name === 'isUrl' && target.format !== 'uri') problems.push(`${where}: validated as a URL`);
        const min = rule.name === 'isNotEmpty' ? 1 : rule.name === 'minLength' || rule.name === 'isLength' ? Number(rule.constraints?.[0]) : 0;
        if (target.type === 'string' && min > 0 && (target.minLength ?? 0) < min) problems.push(`${where}: minLength ${min} not documented`);
        const member0 = schema.properties[rule.propertyName];
        if (rule.name === 'isOptional' && !member0.nullable && !member0.anyOf) problems.push(`${where}: accepts null, not documented nullable`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it('integers are integer: no `number` left but the fractional members', () => {
    const fractional = new Set([
      'FlowPositionDto.x', 'FlowPositionDto.y', 'backgroundAudioVolume', 'defaultVolume', 'PushLeadDto.fields',
      // commerce (decisions.md 31.12): money in the currency's major unit, a median in minutes, a window in days
      'CommerceOrderResponse.totalValue', 'OrderUpdatesSummaryResponse.spend', 'OrderUpdatesSummaryResponse.costPerNotifiedOrder',
      'OrderUpdatesSummaryResponse.medianMinutesToFirstUpdate', 'OrderUpdatesSummaryResponse.notifiedValue', 'OrderUpdatesSummaryResponse.totalValue',
      'get /crm/connections/{id}/order-updates/summary days',
      // knowledge (decisions.md 39.5): a full-text rank
      'PassageResponse.score',
    ]);
    const found: string[] = [];
    const walk = (s: SchemaObject | undefined, where: string, member: string) => {
      if (!s || typeof s !== 'object') return;
      if (s.type === 'number' && !fractional.has(where) && !fractional.has(member)) found.push(where);
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${where}.${k}`, k);
      walk(s.items, where, member);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, where, member);
      for (const alt of [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])]) walk(alt, where, member);
    };
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) walk(schema, name, name);
    for (const { method, path, op } of operations(doc)) for (const p of op.parameters ?? []) walk(p.schema, `${method} ${path} ${p.name}`, p.name);
    expect(found).toEqual([]);
    expect(resolve(doc, doc.components?.schemas?.CampaignResponse)?.properties?.retryDelaysMinutes?.items?.type).toBe('integer');
    expect(doc.paths['/calls'].get.parameters?.find((p) => p.name === 'limit')?.schema?.type).toBe('integer');
  });

  it('a PATCH refuses an empty body (minProperties: 1) where it answers no_fields_to_update', () => {
    const patches = operations(doc).filter((o) => o.method === 'patch');
    expect(patches.length).toBeGreaterThanOrEqual(5);
    for (const { path, op } of patches) {
      expect([path, errorCodes(op, 400)]).toEqual([path, expect.arrayContaining(['no_fields_to_update'])]);
      expect([path, resolve(doc, op.requestBody?.content['application/json'].schema)?.minProperties]).toEqual([path, 1]);
    }
  });

  it('Idempotency-Key is declared once on POST /calls/test, with its codes', () => {
    const op = doc.paths['/calls/test'].post;
    const headers = (op.parameters ?? []).filter((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    expect(headers).toEqual([expect.objectContaining({ name: 'Idempotency-Key', required: true })]);
    expect(errorCodes(op, 400)).toEqual(expect.arrayContaining(['idempotency_key_required', 'idempotency_key_invalid']));
    expect(errorCodes(op, 409)).toEqual(expect.arrayContaining(['idempotency_in_progress', 'idempotency_key_reused']));
    expect(errorCodes(op, 503)).toEqual(expect.arrayContaining(['idempotency_unavailable']));
  });

  it('POST /campaign-types: extraction keys are {name, description} (type optional), as the contract says', () => {
    const body = resolve(doc, doc.paths['/campaign-types'].post.requestBody?.content['application/json'].schema);
    const key = resolve(doc, body?.properties?.extractionKeys?.items);
    expect(key?.required).toEqual(['name', 'description']);
    expect(errorCodes(doc.paths['/campaign-types'].post, 409)).toEqual(['name_taken']);
  });

  it('POST /dnc: reason may be null (nullable beside its type, OpenAPI 3.0)', () => {
    const body = resolve(doc, doc.paths['/dnc'].post.requestBody?.content['application/json'].schema);
    expect(body?.properties?.reason).toMatchObject({ type: 'string', nullable: true });
  });

  it('routes whose handler reads no path parameter still declare it', () => {
    const names = (path: string, method: string) =>
      (doc.paths[path][method].parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, p.required]);
    expect(names('/agents/{id}/compiled-prompt', 'get')).toEqual([['id', true]]);
    expect(names('/calls/{id}/metrics/{key}', 'put')).toEqual([['id', true], ['key', true]]);
  });

  it('the bearer scheme is an opaque API key, not a JWT', () => {
    expect(doc.components?.securitySchemes?.bearer).toEqual({ type: 'http', scheme: 'bearer', description: 'API key (pk_live_…)' });
  });

  it('GET /voices/{id}/preview: audio/wav, 404 not_found, 501 preview_not_supported', () => {
    const op = doc.paths['/voices/{id}/preview'].get;
    expect(Object.keys(op.responses['200'].content ?? {})).toEqual(['audio/wav']);
    expect(errorCodes(op, 404)).toEqual(['not_found']);
    expect(errorCodes(op, 501)).toEqual(['preview_not_supported']);
  });

  it('route statuses and derived codes: lead push 422s, start checks, human-only and operator-only routes', () => {
    const push = doc.paths['/v1/campaigns/{campaignId}/leads'].post;
    expect(errorCodes(push, 422)).toEqual(expect.arrayContaining(['invalid_body', 'idempotency_key_required', 'invalid_phone']));
    expect(errorCodes(push, 400)).not.toContain('invalid_body');
    expect(errorCodes(push, 409)).toEqual(expect.arrayContaining(['campaign_not_accepting']));
    const start = doc.paths['/v1/campaigns/{id}/start'].post;
    expect(errorCodes(start, 400)).toEqual(expect.arrayContaining(['campaign_not_startable', 'campaign_no_pending_contacts', 'invalid_reserved_concurrency']));
    expect(errorCodes(start, 402)).toEqual(['activity_frozen', 'insufficient_credits', 'workspace_not_active']);
    expect(errorCodes(doc.paths['/credits/recharges'].post, 403)).toContain('api_key_not_allowed');
    expect(errorCodes(doc.paths['/calls/{id}/metrics/{key}'].put, 403)).toContain('operator_only');
    expect(errorCodes(doc.paths['/v1/workspace'].get, 403)).not.toContain('forbidden'); // any valid key
  });
});
