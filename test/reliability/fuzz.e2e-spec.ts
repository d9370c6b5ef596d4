import fc from 'fast-check';
import { errorDefinition, isErrorCode, listRoutes } from '@outreach/platform';
import { Seeded, TestApp } from '../support/test-app';
import { changedTables, describeRequest, seedFuzzTargets, send, snapshot } from './support/fuzz-harness';
import { FuzzRequest, Loose, operations, requestArbitrary } from './support/openapi-arbitraries';

/**
 * Property-based fuzzing of every operation of the OpenAPI document (issue 7, item 1).
 * FUZZ_RUNS requests per operation (default 10: about 1,900 requests over 193 operations, a minute of CI since the answer check keeps its validators, decisions.md 10.13),
 * FUZZ_SEED fixes the sequence (default 42). `npm run fuzz` runs many more.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 42);

// Many requests with one key: lift the per-key limit so every request reaches validation.
process.env.RATE_LIMIT_PER_MINUTE = '10000000';

/**
 * The 5xx answers a route documents (spec error tables, decisions.md 1.12): answers, not crashes.
 * Anything else at 5xx (above all 500 internal_error) fails the test.
 */
const DOCUMENTED_5XX: Record<string, string[]> = {
  'POST /calls/test/web': ['web_session_not_supported'],
  'POST /calls/test': ['sandbox_from_number_not_configured', 'sandbox_from_number_unavailable', 'web_session_not_supported', 'not_supported', 'provider_error'],
  'GET /voices/{id}/preview': ['preview_not_supported'],
  // AI assist (decisions.md 32): a failing language model, and the contract's 500 for invalid chat input.
  'POST /campaigns/from-brief': ['suggestion_failed'],
  'POST /campaigns/suggest-metric-prompt': ['suggestion_failed'],
  'POST /campaigns/{id}/chat': ['chat_failed'],
  'POST /speech/calls/{id}/translate': ['provider_error'],
  'POST /speech/calls/{id}/analyse': ['analysis_failed'],
};

/** Routes whose error body may name its code `code` instead of `error` (lead push, spec). */
const CODE_KEY_ROUTES = new Set(['POST /v1/campaigns/{campaignId}/leads', 'POST /v1/campaigns/{campaignId}/leads/batch']);

/**
 * Known failing cases, each reported; each entry matches only the requests that trigger it, so
 * any other failure on the same route still fails the test. Empty: the fuzzer's first findings
 * (unbounded offsets on GET /dnc and GET /credits/recharges; NUL bytes in uploads and JSON
 * strings) are fixed and pinned by test/reliability/fuzz-regressions.e2e-spec.ts.
 */
const ALLOWED_FAILURES: Array<{ route: string; status: number; code: string; when: (req: FuzzRequest) => boolean; why: string }> = [];

describe('fuzzing every operation of /docs-json (fast-check)', () => {
  let t: TestApp;
  let ws: Seeded;
  let doc: Loose;
  let knownIds: string[] = [];

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    // Real resources, so some path ids hit existing rows and reach deeper rules.
    ({ ws, knownIds } = await seedFuzzTargets(t));
    const res = await t.http.get('/docs-json');
    expect(res.status).toBe(200);
    doc = res.body;
  }, 60_000);
  afterAll(() => t?.close());

  it('the document covers every registered route but /metrics', () => {
    const documented = new Set(operations(doc).map((o) => `${o.method} ${o.path}`));
    const missing = listRoutes(t.app)
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
      .filter((k) => !documented.has(k));
    expect(missing).toEqual(['GET /metrics']);
  });

  it('never a 5xx outside the documented ones, every error code in the catalogue, rejections change nothing', async () => {
    const ops = operations(doc);
    const stats: Record<string, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
    const codes: Record<string, number> = {};
    const allowedHits: Record<string, number> = {};
    let sent = 0;
    let readBacks = 0;
    const failures: string[] = [];

    for (const [index, operation] of ops.entries()) {
      const route = `${operation.method} ${operation.path}`;
      const mutating = operation.method !== 'GET';
      const result = await fc.check(
        fc.asyncProperty(requestArbitrary(doc, operation, knownIds), async (req) => {
          // Read back around every rejected mutating request (GETs cannot change anything).
          const before = mutating ? await snapshot(t.dataSource) : undefined;
          const res = await send(t, ws.key, req);
          sent += 1;
          stats[`${Math.floor(res.status / 100)}xx`] = (stats[`${Math.floor(res.status / 100)}xx`] ?? 0) + 1;
          if (res.status < 400) return;

          const code = String(res.body.error ?? (CODE_KEY_ROUTES.has(route) ? res.body.code : undefined));
          codes[`${res.status} ${code}`] = (codes[`${res.status} ${code}`] ?? 0) + 1;
          const known = ALLOWED_FAILURES.find((a) => a.route === route && a.status === res.status && a.code === code && a.when(req));
          if (known) {
            allowedHits[`${route} (${known.why})`] = (allowedHits[`${route} (${known.why})`] ?? 0) + 1;
            return;
          }
          const problems: string[] = [];
          if (!res.contentType.includes('application/json')) problems.push(`error answered as ${res.contentType || 'no content type'}`);
          if (!isErrorCode(code)) problems.push(`code ${code} is not in the catalogue`);
          else {
            const def = errorDefinition(code);
            if (res.status !== def.status && !(def.also ?? []).includes(res.status)) problems.push(`${code} answered with ${res.status}, catalogue says ${def.status}`);
          }
          if (res.status >= 500 && !(DOCUMENTED_5XX[route] ?? []).includes(code)) problems.push(`undocumented ${res.status} ${code}`);
          if (/\n\s+at .+:\d+:\d+/.test(res.text) || 'stack' in res.body) problems.push('stack trace in the response');
          if (before) {
            readBacks += 1;
            const changed = changedTables(before, await snapshot(t.dataSource));
            if (changed.length) problems.push(`rejected request changed ${changed.join(', ')}`);
          }
          if (problems.length) throw new Error(`${problems.join('; ')} — answered ${res.status} ${res.text.slice(0, 300)}`);
        }),
        { numRuns: RUNS, seed: SEED + index, endOnFailure: false, markInterruptAsFailure: false },
      );
      if (result.failed) {
        const req = result.counterexample?.[0];
        failures.push(`${route}: ${String((result.errorInstance as Error | undefined)?.message ?? result.errorInstance)}\n    request: ${req ? describeRequest(req) : '?'}\n    (seed ${SEED + index}, path ${result.counterexamplePath})`);
      }
    }

    const top = Object.entries(codes)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([k, n]) => `${k}×${n}`)
      .join(', ');
    // The summary line the brief asks for (also the figure for docs/reliability.md).
    console.log(
      `fuzz: ${sent} requests over ${ops.length} operations (runs ${RUNS}/operation, seed ${SEED}): ` +
        `2xx ${stats['2xx']}, 3xx ${stats['3xx']}, 4xx ${stats['4xx']}, 5xx ${stats['5xx']}; ` +
        `${readBacks} read-backs; ${failures.length} failing operations\n  top codes: ${top}` +
        `\n  known failures hit (allow-listed, reported): ${JSON.stringify(allowedHits)}`,
    );
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(ops.length * RUNS);
  }, 120_000 + RUNS * 100 * 250);
});
