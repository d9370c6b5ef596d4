import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Seeded, TestApp } from '../support/test-app';
import { seedFuzzTargets } from '../reliability/support/fuzz-harness';
import { Loose, Operation, operations, resolve } from '../reliability/support/openapi-arbitraries';

/*
 * Contract test by an independent tool (issue 20, item 3): Stoplight Prism in validation-proxy mode
 * (`prism proxy --errors`) sits between a client and the running service, and refuses any request
 * or response that violates the OpenAPI document the service serves at /docs-json. The traffic is
 * the fuzzer's, restricted to requests that are valid by the document (a request Prism refuses is
 * a finding too: the document is stricter than the service's own clients assume). Run with
 * `npm run test:contract` alone, or as part of `npm test` (CONTRACT_RUNS requests per operation,
 * default 5; CONTRACT_SEED fixes the sequence).
 */
const RUNS = Number(process.env.CONTRACT_RUNS ?? 5);
const SEED = Number(process.env.CONTRACT_SEED ?? 7);
process.env.RATE_LIMIT_PER_MINUTE = '10000000';

/** A value the schema accepts: required members present, no member the schema does not name. */
function strictValue(doc: Loose, schema: Loose | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  if (!s) return fc.constant('x');
  if (s.allOf) return strictValue(doc, Object.assign({}, ...s.allOf.map((x: Loose) => resolve(doc, x))), depth);
  const isNull = (x: Loose | undefined) => !!x && (x.type === 'null' || (Array.isArray(x.enum) && x.enum.every((v: unknown) => v === null)));
  const alts = ((s.oneOf ?? s.anyOf) as Loose[] | undefined)?.filter((x) => !isNull(resolve(doc, x)));
  if (alts?.length) return fc.oneof(...alts.map((x: Loose) => strictValue(doc, x, depth + 1)));
  if (isNull(s)) return fc.constant(null);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]).filter((v) => v !== null));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'string': {
      if (s.format === 'uuid') return fc.uuid();
      if (s.format === 'date-time') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === 'email') return fc.constantFrom('ann@example.com', 'bob@example.org');
      if (s.format === 'uri' || s.format === 'url') return fc.constantFrom('https://example.com/hook', 'https://example.org/x');
      if (s.pattern) {
        try {
          const re = new RegExp(s.pattern);
          return fc.stringMatching(re).filter((x) => x.length >= (s.minLength ?? 0) && x.length <= (s.maxLength ?? 200) && re.test(x));
        } catch {
          /* fall through */
        }
      }
      return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 '.split('')), minLength: Math.max(1, s.minLength ?? 1), maxLength: Math.min(s.maxLength ?? 20, 20) });
    }
    case 'integer':
      return fc.integer({ min: s.minimum ?? 0, max: s.maximum ?? 1_000 });
    case 'number':
      return fc.integer({ min: s.minimum ?? 0, max: s.maximum ?? 1_000 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.uniqueArray(strictValue(doc, s.items, depth + 1), {
        minLength: s.minItems ?? 0,
        maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 2, 2)),
        selector: (v) => JSON.stringify(v),
      });
    default: {
      if (depth > 5) return fc.constant({});
      const required = new Set<string>(s.required ?? []);
      const members: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, prop] of Object.entries((s.properties ?? {}) as Loose)) {
        if ((prop as Loose).readOnly) continue;
        members[name] = strictValue(doc, prop as Loose, depth + 1);
      }
      const requiredKeys = Object.keys(members).filter((k) => required.has(k));
      const record = fc.record(members, { requiredKeys });
      if (s.additionalProperties && typeof s.additionalProperties === 'object' && Object.keys(members).length === 0) {
        // A map: between its minProperties and maxProperties members (at most 2).
        const minKeys = Math.min((s.minProperties as number | undefined) ?? 0, 2);
        return fc.dictionary(fc.constantFrom('a', 'b', 'c'), strictValue(doc, s.additionalProperties, depth + 1), { minKeys, maxKeys: Math.max(minKeys, Math.min((s.maxProperties as number | undefined) ?? 2, 2)) });
      }
      // `minProperties` (a body answering no_fields_to_update): document-valid traffic has that many members.
      const minProperties = (s.minProperties as number | undefined) ?? 0;
      return minProperties > 0 ? record.filter((value) => Object.keys(value as object).length >= minProperties) : record;
    }
  }
}

interface ContractRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

/** A multipart body: every binary field gets a small CSV of contacts. */
function multipartOf(doc: Loose, schema: Loose | undefined): FormData {
  const form = new FormData();
  for (const [name, prop] of Object.entries((resolve(doc, schema)?.properties ?? { file: { format: 'binary' } }) as Loose)) {
    if ((prop as Loose).format === 'binary') form.append(name, new Blob(['phone,name\n+14155550100,Ann\n'], { type: 'text/csv' }), 'contacts.csv');
  }
  return form;
}

function requestOf(doc: Loose, operation: Operation, knownIds: string[]): fc.Arbitrary<ContractRequest> {
  const params = (operation.op.parameters ?? []) as Loose[];
  const pathNames = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const query = params.filter((p) => p.in === 'query' && !/cursor/i.test(p.name));
  const idem = params.some((p) => p.in === 'header' && /idempotency-key/i.test(p.name));
  // Other required headers (e.g. a chatbot's X-Embed-Key): a token-like value (header-safe).
  const headerParams = params.filter((p) => p.in === 'header' && p.required === true && !/idempotency-key/i.test(p.name));
  const json = operation.op.requestBody?.content?.['application/json']?.schema;
  const multipart = operation.op.requestBody?.content?.['multipart/form-data'];
  return fc
    .tuple(
      fc.tuple(...pathNames.map(() => fc.oneof(fc.constantFrom(...knownIds), fc.uuid()))),
      // Document-valid: a required query parameter is always sent, an optional one sometimes.
      fc.tuple(...query.map((p) => (p.required === true ? strictValue(doc, p.schema) : fc.option(strictValue(doc, p.schema), { nil: undefined })))),
      json ? strictValue(doc, json) : fc.constant(undefined),
      fc.uuid(),
      fc.tuple(...headerParams.map(() => fc.stringMatching(/^[a-z0-9]{8,32}$/))),
    )
    .map(([ids, qs, body, key, hs]) => {
      let path = operation.path;
      pathNames.forEach((name, i) => (path = path.replace(`{${name}}`, encodeURIComponent(String(ids[i])))));
      const pairs = query.flatMap((p, i) => (qs[i] === undefined ? [] : [`${encodeURIComponent(p.name)}=${encodeURIComponent(String(qs[i]))}`]));
      const headers: Record<string, string> = {};
      if (idem) headers['Idempotency-Key'] = `contract-${key}`;
      headerParams.forEach((p, i) => (headers[p.name] = String(hs[i])));
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const url = pairs.length ? `${path}?${pairs.join('&')}` : path;
      if (multipart) {
        const { ['Content-Type']: _json, ...partHeaders } = headers;
        return { method: operation.method, url, headers: partHeaders, body: multipartOf(doc, multipart.schema) };
      }
      return { method: operation.method, url, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    });
}

function startPrism(docFile: string, upstream: string, port: number): Promise<ChildProcess> {
  const bin = join(__dirname, '../../node_modules/.bin/prism');
  const child = spawn(bin, ['proxy', docFile, upstream, '--errors', '--port', String(port), '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`prism did not start: ${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/Prism is listening/i.test(out)) {
        clearTimeout(timer);
        resolvePromise(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`prism exited ${code}: ${out}`)));
  });
}

describe('contract: the service against its own document, through Prism (validation proxy)', () => {
  let t: TestApp;
  let ws: Seeded;
  let doc: Loose;
  let prism: ChildProcess | null = null;
  let base = '';
  let knownIds: string[] = [];

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    ({ ws, knownIds } = await seedFuzzTargets(t));
    doc = (await t.http.get('/docs-json')).body;
    const dir = mkdtempSync(join(tmpdir(), 'contract-'));
    const docFile = join(dir, 'openapi.json');
    writeFileSync(docFile, JSON.stringify(doc));
    await t.app.listen(0, '127.0.0.1');
    const upstream = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    // Prism takes a port number, not 0: a random one below Linux's ephemeral range (32768+, where
    // the suite's own outgoing connections take theirs), and another one should it be taken.
    for (let attempt = 1; !prism; attempt++) {
      const port = 20_000 + Math.floor(Math.random() * 12_000);
      try {
        prism = await startPrism(docFile, upstream, port);
        base = `http://127.0.0.1:${port}`;
      } catch (error) {
        if (attempt >= 3 || !/EADDRINUSE/.test((error as Error).message)) throw error;
      }
    }
  }, 120_000);
  afterAll(async () => {
    prism?.kill('SIGTERM');
    await t?.close();
  });

  it('no request or response of document-valid traffic violates the document', async () => {
    const violations = new Map<string, string>();
    let sent = 0;
    const statuses: Record<string, number> = {};
    for (const [index, operation] of operations(doc).entries()) {
      const route = `${operation.method} ${operation.path}`;
      await fc.assert(
        fc.asyncProperty(requestOf(doc, operation, knownIds), async (req) => {
          const res = await fetch(base + req.url, { method: req.method, headers: { Authorization: `Bearer ${ws.key}`, ...req.headers }, body: req.body });
          const text = await res.text();
          sent++;
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          const problem = res.headers.get('content-type')?.includes('application/problem+json') && /stoplight\.io\/prism\/errors/.test(text);
          const shown = typeof req.body === 'string' ? req.body : req.body ? '(multipart)' : '';
          if (problem && !violations.has(route)) violations.set(route, `${res.status} ${text.slice(0, 600)}\n    request: ${req.method} ${req.url} ${shown}`.slice(0, 1200));
        }),
        { numRuns: RUNS, seed: SEED + index },
      );
    }
    const report = [...violations].map(([route, what]) => `${route}: ${what}`);
    process.stdout.write(`contract (prism proxy --errors): ${sent} requests over ${operations(doc).length} operations, ${violations.size} operations with violations; statuses ${JSON.stringify(statuses)}\n`);
    if (report.length) process.stdout.write(`${report.join('\n')}\n`);
    expect(report).toEqual([]);
  }, 600_000);
});
