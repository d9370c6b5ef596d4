import fc from 'fast-check';

/**
 * fast-check arbitraries built from the OpenAPI document (/docs-json): for every operation a
 * request with fuzzed path ids, query values, headers and body. Valid-looking values derived from
 * the schemas are mixed with hostile ones (wrong types, missing and extra members, huge strings,
 * deep nesting, unicode and control characters, malformed JSON, wrong content types).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAPI documents are read loosely
export type Loose = Record<string, any>;

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. /agents/{id} */
  path: string;
  op: Loose;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?:
    | { kind: 'raw'; contentType: string | undefined; data: string }
    | { kind: 'multipart'; field: string; filename: string; content: string; extraField?: [string, string] };
}

export function operations(doc: Loose): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Loose)) {
    for (const [method, op] of Object.entries(item as Loose)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) out.push({ method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

/** The schema a `$ref` points at (followed up to 20 hops). */
export function resolve(doc: Loose, schema: Loose | undefined): Loose | undefined {
  let s = schema;
  for (let i = 0; s && s.$ref && i < 20; i++) s = doc.components?.schemas?.[String(s.$ref).split('/').pop()!];
  return s;
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  'NaN',
  'Infinity',
  '1e999',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  '../../etc/passwd',
  '%00',
  '\u0000',
  'a\u0000b',
  '\u202egnp.exe',
  '\ud800',
  '\udfff\ud800',
  '\ufeff',
  '😀👨‍👩‍👧‍👦',
  'ÅÍÎÏ˝ÓÔÒÚÆ☃',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  "'; DROP TABLE campaigns; --",
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  '+14155550100',
  '2026-13-45T25:61:61Z',
  '9999-12-31T23:59:59Z',
  '-271821-04-20T00:00:00Z',
];

const controlChars = fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 });

/** Up to ~100 KB of one repeated unit (ASCII, accents, emoji, NUL, markup). */
export const hugeString = fc
  .tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom('a', 'é', '😀', '\u0000', '<b>', '\\', '"', '%'))
  .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)));

function nest(depth: number, asArray: boolean): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}
export const deepNesting = fc.tuple(fc.integer({ min: 10, max: 3_000 }), fc.boolean()).map(([d, a]) => nest(d, a));

export const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  controlChars,
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 1, 2 ** 31) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant({ __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } }) },
);

const extraKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'workspaceId', '', 'a.b', '$where'), fc.string({ maxLength: 20 }));

/** A value that matches the schema (as far as this simple walker understands it). */
export function validValue(doc: Loose, schema: Loose | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  if (!s || depth > 6) return fc.constant(null);
  if (s.allOf) return validValue(doc, Object.assign({}, ...s.allOf.map((x: Loose) => resolve(doc, x))), depth);
  const alts = s.oneOf ?? s.anyOf;
  if (alts) return fc.oneof(...alts.map((x: Loose) => validValue(doc, x, depth + 1)));
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  const base = ((): fc.Arbitrary<unknown> => {
    switch (s.type) {
      case 'string':
        if (s.format === 'uuid') return fc.uuid();
        if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
        if (s.format === 'email') return fc.emailAddress();
        if (s.pattern) {
          try {
            return fc.stringMatching(new RegExp(s.pattern)).map((x) => x.slice(0, s.maxLength ?? 200));
          } catch {
            /* fall through */
          }
        }
        return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 300) });
      case 'integer':
        return fc.integer({ min: s.minimum ?? -1_000, max: s.maximum ?? 1_000 });
      case 'number':
        return fc.double({ min: s.minimum ?? -1_000, max: s.maximum ?? 1_000, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(fuzzValue(doc, s.items, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 5) });
      default:
        if (s.type === 'object' || s.properties) return fuzzObject(doc, s, depth + 1);
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return s.nullable ? fc.oneof({ weight: 5, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) }) : base;
}

/** Mostly valid, sometimes hostile. */
export function fuzzValue(doc: Loose, schema: Loose | undefined, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: validValue(doc, schema, depth) }, { weight: 1, arbitrary: hostileValue });
}

const ABSENT = Symbol('absent');

/** An object with required members sometimes missing, optional ones sometimes present, extras sometimes added. */
export function fuzzObject(doc: Loose, schema: Loose, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set<string>(schema.required ?? []);
  const props = Object.entries((schema.properties ?? {}) as Loose);
  const members: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, propSchema] of props) {
    members[name] = fc.oneof(
      { weight: required.has(name) ? 12 : 3, arbitrary: fuzzValue(doc, propSchema, depth) },
      { weight: 1, arbitrary: fc.constant(ABSENT) },
    );
  }
  const extras = fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.dictionary(extraKey, hostileValue, { minKeys: 1, maxKeys: 2 }) },
  );
  return fc.tuple(fc.record(members), extras).map(([r, x]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) if (v !== ABSENT) out[k] = v;
    for (const [k, v] of Object.entries(x)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out;
  });
}

const MALFORMED_JSON = ['{', '{"a":', '[1,2', 'nul', '{"a":1,}', "{'a':1}", '{"a":1}}', '\u0000', '', '{"a":"\\u12"}', '{"a":01}', '"unterminated', '{"__proto__":', '1e999999'];

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  'image/png',
  '',
  'application/vnd.api+json',
];

function jsonBody(data: unknown, contentType = 'application/json'): FuzzRequest['body'] {
  return { kind: 'raw', contentType, data: JSON.stringify(data) ?? 'null' };
}

function bodyArbitrary(doc: Loose, op: Loose): fc.Arbitrary<FuzzRequest['body']> {
  const content = (op.requestBody?.content ?? {}) as Loose;
  if (content['multipart/form-data']) {
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .record({
            field: fc.oneof(fc.constant('file'), fc.constantFrom('files', 'upload', ''), fc.string({ maxLength: 10 })),
            filename: fc.oneof(fc.constantFrom('leads.csv', 'leads.xlsx', 'x.pdf', '../../x.csv', 'a\u202e.csv', 'noext'), fc.string({ minLength: 1, maxLength: 40 })),
            content: fc.oneof(
              fc.constantFrom('phone,name\n+14155550100,Ann\n', 'phone\n', '', '\u0000\u0001\u0002', 'phone,name\n1.4155550100E+10,Bob\n'),
              fc.string({ unit: 'binary', maxLength: 500 }),
              hugeString,
            ),
            extraField: fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 50 })), { nil: undefined }),
          })
          .map((m) => ({ kind: 'multipart' as const, ...m })),
      },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => jsonBody(v)) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  }
  const schema = content['application/json']?.schema;
  const resolved = resolve(doc, schema);
  const shaped = resolved && (resolved.type === 'object' || resolved.properties) ? fuzzObject(doc, resolved) : fuzzValue(doc, schema);
  return fc.oneof(
    { weight: 8, arbitrary: shaped.map((v) => jsonBody(v)) },
    { weight: 1, arbitrary: fc.oneof(hostileValue, fc.array(shaped, { maxLength: 3 })).map((v) => jsonBody(v)) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...MALFORMED_JSON), hostileString).map((data) => ({ kind: 'raw' as const, contentType: 'application/json', data })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...WRONG_CONTENT_TYPES), shaped).map(([ct, v]) => ({
        kind: 'raw' as const,
        contentType: ct,
        data: ct.includes('urlencoded') ? new URLSearchParams(Object.entries(v !== null && typeof v === 'object' ? v : { v }).map(([k, x]): [string, string] => [k, String(x)])).toString() : JSON.stringify(v),
      })),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** A path id: a random UUID, a known id of the seeded workspace, or garbage. */
function pathIdArbitrary(knownIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.uuid() },
    { weight: knownIds.length ? 3 : 0, arbitrary: knownIds.length ? fc.constantFrom(...knownIds) : fc.uuid() },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length > 0) },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 4_000 }).map((n) => 'a'.repeat(n)) },
    { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
    { weight: 1, arbitrary: fc.uuid().map((u) => `${u} `) },
  );
}

const badCursor = fc.oneof(
  fc.base64String({ maxLength: 80 }),
  fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v) ?? '').toString('base64url')),
  fc
    .record({ t: fc.oneof(fc.string(), fc.integer(), fc.constant('2026-01-01T00:00:00Z')), id: fc.oneof(fc.uuid(), fc.string()) })
    .map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  hostileString,
);

function queryValueArbitrary(doc: Loose, param: Loose): fc.Arbitrary<string[]> {
  const single = fc.oneof(
    { weight: 3, arbitrary: validValue(doc, param.schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '')) },
    { weight: 2, arbitrary: hostileString },
    { weight: /cursor/i.test(param.name) ? 3 : 0, arbitrary: badCursor },
    { weight: 1, arbitrary: fc.constantFrom('-1', '0', '1.5', '1e3', '99999999999999999999', 'abc', '', ' 1', '0x10', '[]', '{}') },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 3_000 }).map((n) => '9'.repeat(n)) },
  );
  return fc.oneof({ weight: 5, arbitrary: single.map((v) => [v]) }, { weight: 1, arbitrary: fc.array(single, { minLength: 2, maxLength: 3 }) });
}

function safeEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, 'x'));
  }
}

const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });

/** The request arbitrary of one operation. */
export function requestArbitrary(doc: Loose, operation: Operation, knownIds: string[]): fc.Arbitrary<FuzzRequest> {
  const params = (operation.op.parameters ?? []) as Loose[];
  const pathNames = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const queryParams = params.filter((p) => p.in === 'query');
  const wantsIdempotencyKey = params.some((p) => p.in === 'header' && /idempotency-key/i.test(p.name));

  const pathArb = fc.tuple(...pathNames.map(() => pathIdArbitrary(knownIds)));
  const queryArb = fc.tuple(
    fc.tuple(...queryParams.map((p) => fc.option(queryValueArbitrary(doc, p), { freq: 2, nil: undefined }))),
    fc.oneof({ weight: 5, arbitrary: fc.constant([] as [string, string][]) }, { weight: 1, arbitrary: fc.array(fc.tuple(fc.oneof(hostileString, fc.constantFrom('a[b]', 'limit[]', '__proto__[x]')), hostileString), { minLength: 1, maxLength: 3 }) }),
  );
  const idemArb = wantsIdempotencyKey
    ? fc.oneof(
        { weight: 5, arbitrary: fc.uuid().map((u) => `fuzz-${u}`) },
        { weight: 1, arbitrary: headerValue },
        { weight: 1, arbitrary: fc.integer({ min: 201, max: 2_000 }).map((n) => 'k'.repeat(n)) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
    : fc.constant(undefined);
  const needsBody = ['POST', 'PUT', 'PATCH'].includes(operation.method) || operation.op.requestBody;
  const bodyArb = needsBody ? bodyArbitrary(doc, operation.op) : fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.jsonValue().map((v) => jsonBody(v)) });

  return fc.tuple(pathArb, queryArb, idemArb, bodyArb).map(([ids, [qvals, extras], idem, body]) => {
    let path = operation.path;
    pathNames.forEach((name, i) => (path = path.replace(`{${name}}`, safeEncode(ids[i]))));
    const pairs: string[] = [];
    queryParams.forEach((p, i) => qvals[i]?.forEach((v) => pairs.push(`${safeEncode(p.name)}=${safeEncode(v)}`)));
    for (const [k, v] of extras) pairs.push(`${safeEncode(k)}=${safeEncode(v)}`);
    const headers: Record<string, string> = {};
    if (idem !== undefined) headers['Idempotency-Key'] = idem;
    return { method: operation.method, url: pairs.length ? `${path}?${pairs.join('&')}` : path, headers, body };
  });
}
