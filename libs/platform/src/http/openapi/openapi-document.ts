import { STATUS_CODES } from 'node:http';
import { INestApplication } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { errorDefinition } from '@outreach/core';
import { CODE_KEYED_ERRORS } from '../error-response';
import { listRoutes, RouteInfo } from '../route-inventory';
import { sampleOf } from './examples';
import type { MediaTypeObject, OpenApiDocument, OperationObject, ParameterObject, ResponseObject, SchemaObject } from './openapi-types';
import { RouteError, routeErrors } from './route-errors';
import { fixNullableReferences, memberRules, tightenMember, validatedClassesByName } from './validator-schemas';

const ERROR_SCHEMA = 'ErrorResponse';
const CODE_KEYED_ERROR_SCHEMA = 'CodeKeyedErrorResponse';

/**
 * The OpenAPI document of the API (served at /docs-json, written by `npm run lint:openapi`).
 * Nest's scanner builds it from the controllers and DTOs; `refineDocument` then derives what the
 * decorators do not say (decisions.md 1.14-1.16): operation ids and module tags, every error answer of
 * every operation, what the validators enforce, examples.
 */
export function openApiDocument(app: INestApplication): OpenApiDocument {
  const options = new DocumentBuilder()
    .setTitle('Outreach Campaign Service')
    .setDescription(
      'Workspace-scoped API for automated outreach. Authenticate with `Authorization: Bearer pk_live_…`. ' +
        'Errors carry a machine-readable `error` code; branch on it and the status, never on `message`. ' +
        'Each operation lists every status and error code it can answer.',
    )
    .setVersion('1.0.0')
    .addServer('/', 'This service')
    // Keys are opaque `pk_live_…` strings, not JWTs: no bearerFormat (addBearerAuth would say JWT).
    .addSecurity('bearer', { type: 'http', scheme: 'bearer', description: 'API key (pk_live_…)' })
    .build();
  const document = SwaggerModule.createDocument(app, options) as unknown as OpenApiDocument;
  refineDocument(document, listRoutes(app));
  return document;
}

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The module an operation belongs to, as its tag: CampaignsModule → campaigns, BillingHttpModule → billing. */
export function moduleTag(moduleName: string): string {
  return moduleName
    .replace(/(Http)?Module$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

interface Located {
  route: RouteInfo;
  op: OperationObject;
  path: string;
}

export function refineDocument(document: OpenApiDocument, routes: RouteInfo[]): void {
  const schemas = (document.components ??= {}).schemas ??= {};
  const located: Located[] = [];
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    const op = document.paths[path]?.[route.method.toLowerCase()];
    if (op) located.push({ route, op, path });
  }

  tightenRequestSchemas(schemas);
  Object.assign(schemas, fixNullableReferences(schemas));
  for (const path of Object.values(document.paths)) for (const op of Object.values(path)) Object.assign(op, fixNullableReferences(op));
  schemas[ERROR_SCHEMA] = errorResponseSchema();
  schemas[CODE_KEYED_ERROR_SCHEMA] = codeKeyedErrorSchema();

  const tags = new Set<string>();
  for (const { route, op, path } of located) {
    // A public route (@Public: health, docs) needs no credentials: `security: []`. Swagger's
    // ApiSecurity({}) writes [{}] ("an empty requirement"), which Prism refuses when a client sends
    // an Authorization header anyway.
    if (op.security?.length === 1 && Object.keys(op.security[0] as object).length === 0) op.security = [];
    op.operationId = operationId(route, routes, op.operationId);
    op.tags = [moduleTag(route.module)];
    tags.add(op.tags[0]);
    op.parameters = parameters(op, path);
    tightenQueryParameters(route, op);
    const errors = routeErrors(route, { hasQuery: op.parameters.some((p) => p.in === 'query') });
    if (errors.some((e) => e.code === 'no_fields_to_update')) requireOneMember(op, schemas);
    addErrorResponses(op, errors, route);
    addExamples(op, schemas);
  }
  document.tags = [...tags].sort().map((name) => ({ name }));

  const ids = located.map((l) => l.op.operationId);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) throw new Error(`operationId used twice: ${repeated.join(', ')}`);
}

/**
 * `<controller><Handler>` in camelCase (CampaignsController.start → campaignsStart), stable as
 * long as the class and method keep their names. A handler served on several paths gets `V1` on
 * its /v1 path (campaignsStart, campaignsStartV1). An explicit `@ApiOperation({ operationId })` wins.
 */
function operationId(route: RouteInfo, routes: RouteInfo[], given: string | undefined): string {
  if (given && !/^\w+_\w+(\[\d+\])?$/.test(given)) return given; // Nest's own is `<Controller>_<handler>[i]`
  const base = lowerFirst(route.controller.replace(/Controller$/, '')) + upperFirst(route.handler);
  const siblings = routes.filter((r) => r.type === route.type && r.handler === route.handler && r.method === route.method);
  if (siblings.length > 1 && route.path.startsWith('/v1/') && siblings.some((r) => !r.path.startsWith('/v1/'))) return `${base}V1`;
  return base;
}

/** Path parameters the handler does not bind are still declared; a header named twice is kept once. */
function parameters(op: OperationObject, path: string): ParameterObject[] {
  const out: ParameterObject[] = [];
  for (const p of op.parameters ?? []) {
    const twin = out.find((q) => q.in === p.in && q.name.toLowerCase() === p.name.toLowerCase());
    if (!twin) out.push(p);
    else if (!twin.description && p.description) out.splice(out.indexOf(twin), 1, p);
  }
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    if (!out.some((p) => p.in === 'path' && p.name === name)) out.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  return out;
}

/** Request DTO schemas: unknown members are refused (the pipe's forbidNonWhitelisted), members as validated. */
function tightenRequestSchemas(schemas: Record<string, SchemaObject>): void {
  const classes = validatedClassesByName();
  for (const [name, schema] of Object.entries(schemas)) {
    const cls = classes.get(name);
    if (!cls || !schema.properties) continue;
    schema.additionalProperties = false;
    for (const [member, rules] of memberRules(cls)) {
      const property = schema.properties[member];
      if (property) schema.properties[member] = tightenMember(property, rules, 'body');
    }
  }
}

/** Query parameters described by the route's @Query() DTO, tightened from its validators. */
function tightenQueryParameters(route: RouteInfo, op: OperationObject): void {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.type, route.handler) ?? {}) as Record<string, { index: number }>;
  const types = (Reflect.getMetadata('design:paramtypes', route.type.prototype, route.handler) ?? []) as Function[];
  for (const [key, { index }] of Object.entries(args)) {
    if (!key.startsWith('4:') || !types[index]) continue; // 4 = RouteParamtypes.QUERY
    for (const [member, rules] of memberRules(types[index])) {
      const param = op.parameters?.find((p) => p.in === 'query' && p.name === member);
      if (param?.schema) param.schema = tightenMember(param.schema, rules, 'query');
    }
  }
}

/** A PATCH that answers no_fields_to_update refuses an empty body: `minProperties: 1`. */
function requireOneMember(op: OperationObject, schemas: Record<string, SchemaObject>): void {
  const schema = op.requestBody?.content['application/json']?.schema;
  const target = schema?.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
  if (target) target.minProperties = 1;
}

function errorResponseSchema(): SchemaObject {
  return {
    type: 'object',
    description: 'An error answer (decisions.md 1.4). Branch on `error` and the status, never on `message`.',
    required: ['error', 'message'],
    properties: {
      error: { type: 'string', description: 'Machine-readable code' },
      message: { type: 'string', description: 'Human-readable; may change' },
      requestId: { type: 'string', description: 'The X-Request-Id of the request' },
      issues: {
        type: 'array',
        description: 'Validation failures (invalid_body, invalid_query)',
        items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
      },
      detail: { description: 'More about the failure, where the code has it' },
      details: {
        type: 'array',
        description: 'workflow_invalid: every problem of the definition (decisions.md 37.1)',
        items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
      },
      requiredPermission: { type: 'string', description: 'forbidden: the scope the route needs' },
      upstreamStatus: { type: 'integer', description: 'provider_error: the status of the called service' },
      currentRevision: { type: 'integer', description: 'concurrent_modification: the current revision' },
    },
  };
}

function codeKeyedErrorSchema(): SchemaObject {
  return {
    type: 'object',
    description: 'The lead push refusal: the code under `code`, with a `reason` (not_api, or the campaign status).',
    required: ['code', 'message'],
    properties: {
      code: { type: 'string', enum: [...CODE_KEYED_ERRORS] },
      reason: { type: 'string' },
      message: { type: 'string' },
      requestId: { type: 'string' },
    },
  };
}

function errorExample(e: RouteError, route: RouteInfo): Record<string, unknown> {
  const message = errorDefinition(e.code).message;
  const body: Record<string, unknown> = CODE_KEYED_ERRORS.includes(e.code) ? { code: e.code, reason: 'not_api' } : { error: e.code };
  body.message = message;
  if (e.code === 'invalid_body' || e.code === 'invalid_query') body.issues = [{ path: 'name', message: 'name must be a string' }];
  if (e.code === 'forbidden' && route.rule?.kind === 'scope') body.requiredPermission = route.rule.scope;
  body.requestId = 'b3a1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
  return body;
}

/** One response per error status, its `error` an enum of the codes the route answers with that status. */
function addErrorResponses(op: OperationObject, errors: RouteError[], route: RouteInfo): void {
  const statuses = [...new Set(errors.map((e) => e.status))].sort((a, b) => a - b);
  const clash = statuses.filter((s) => op.responses[String(s)] !== undefined);
  if (clash.length > 0) {
    throw new Error(`${route.controller}.${route.handler} documents error status ${clash.join(', ')} itself: declare its codes with @Raises instead`);
  }
  for (const status of statuses) {
    const here = errors.filter((e) => e.status === status);
    const plain = [...new Set(here.filter((e) => !CODE_KEYED_ERRORS.includes(e.code)).map((e) => e.code))].sort();
    const keyed = here.some((e) => CODE_KEYED_ERRORS.includes(e.code));
    const alternatives: SchemaObject[] = [];
    if (plain.length > 0) {
      alternatives.push({
        allOf: [{ $ref: `#/components/schemas/${ERROR_SCHEMA}` }, { type: 'object', properties: { error: { type: 'string', enum: plain } } }],
      });
    }
    if (keyed) alternatives.push({ $ref: `#/components/schemas/${CODE_KEYED_ERROR_SCHEMA}` });
    const examples: MediaTypeObject['examples'] = {};
    for (const e of here) examples[e.code] = { summary: errorDefinition(e.code).message, value: errorExample(e, route) };
    const response: ResponseObject = {
      description: `${STATUS_CODES[status] ?? 'Error'}: ${here.map((e) => e.code).join(', ')}`,
      content: { 'application/json': { schema: alternatives.length === 1 ? alternatives[0] : { oneOf: alternatives }, examples } },
    };
    if (status === 429 || status === 503 || here.some((e) => e.code === 'idempotency_in_progress')) {
      response.headers = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } };
    }
    if (status === 401) response.headers = { 'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } } };
    op.responses[String(status)] = response;
  }
}

/** An example on every JSON request body and success response that has none. */
function addExamples(op: OperationObject, schemas: Record<string, SchemaObject>): void {
  const json = op.requestBody?.content['application/json'];
  if (json?.schema && json.example === undefined && json.examples === undefined) json.example = sampleOf(json.schema, schemas, false);
  for (const [status, response] of Object.entries(op.responses)) {
    const media = response.content?.['application/json'];
    if (Number(status) < 400 && media?.schema && media.example === undefined && media.examples === undefined) {
      media.example = sampleOf(media.schema, schemas, true);
    }
  }
}
