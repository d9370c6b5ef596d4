// The typed client (clients/typescript, issue 20 item 1): its generated types must match the
// running app's OpenAPI document (`npm run client:generate` rewrites them), and it must work end to
// end against the real service: push a lead, wait for its result.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOutreachClient, eachByCursor, ErrorCodeOf, operations, OutreachError, retryAfterMs, withIdempotencyKey } from '../../clients/typescript/src';
import { startWorker } from '../engine/engine-harness';
import { runningApiCampaign } from '../results/results-helpers';
import { Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';

const ROOT = join(__dirname, '..', '..');

// Error codes are a union per operation (checked by `tsc` in npm test): a code the operation can
// answer type-checks, a code of another operation does not.
type CreateCampaignError = ErrorCodeOf<operations['campaignsCreate']>;
export const createCampaignErrors: CreateCampaignError[] = ['invalid_body', 'agent_not_found', 'workflow_not_active', 'rate_limited'];
// @ts-expect-error do_not_call is not an answer of POST /v1/campaigns
export const notACreateCampaignError: CreateCampaignError = 'do_not_call';
const SCHEMA = join(ROOT, 'clients/typescript/src/schema.d.ts');

/** openapi-typescript's rendering of a document, as the committed schema.d.ts holds it. */
function generate(document: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'client-'));
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
  execFileSync(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), join(dir, 'openapi.json'), '-o', join(dir, 'schema.d.ts')], {
    stdio: 'pipe',
  });
  return `// Generated from the service's OpenAPI document by openapi-typescript: do not edit; run \`npm run client:generate\`.\n${readFileSync(join(dir, 'schema.d.ts'), 'utf8')}`;
}

describe('typed client', () => {
  let t: TestApp;
  let ws: Seeded;
  let baseUrl: string;

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    ws = await t.seed({ features: ['api_results'] });
    await new Promise<void>((resolve) => t.app.getHttpServer().listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    t?.app.getHttpServer().closeAllConnections(); // fetch keeps its connections alive
    await t?.close();
  });

  it("its generated types are the running app's document (npm run client:generate rewrites them)", async () => {
    const res = await t.http.get('/docs-json');
    expect(res.status).toBe(200);
    const generated = generate(res.body);
    if (process.env.UPDATE_CLIENT === '1') writeFileSync(SCHEMA, generated);
    const committed = readFileSync(SCHEMA, 'utf8');
    if (committed !== generated) {
      throw new Error('clients/typescript/src/schema.d.ts drifted from the OpenAPI document: run `npm run client:generate` and commit it');
    }
  });

  it('reads with the API key, and a failure carries the error code of the body', async () => {
    const client = createOutreachClient({ baseUrl, apiKey: ws.key });
    const workspace = await client.GET('/v1/workspace');
    expect(workspace.response.status).toBe(200);
    expect(workspace.data).toMatchObject({ id: ws.workspaceId });

    const anonymous = createOutreachClient({ baseUrl, apiKey: 'pk_live_not-a-key' });
    const refused = await anonymous.GET('/v1/workspace');
    expect(refused.response.status).toBe(401);
    const error = new OutreachError(refused.response.status, refused.error);
    expect(error.code).toBe('invalid_api_key');
  });

  it('retries a 429 or a safe 503 honouring Retry-After, and never repeats an unsafe 503', async () => {
    const seen: string[] = [];
    let answers = [429, 503, 200];
    const fake = async (request: Request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      const status = answers.shift() ?? 200;
      return new Response(JSON.stringify(status === 200 ? { id: 'w' } : { error: 'rate_limited' }), {
        status,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '0' },
      });
    };
    const client = createOutreachClient({ baseUrl, apiKey: ws.key, fetch: fake });
    expect((await client.GET('/v1/workspace')).response.status).toBe(200);
    expect(seen).toEqual(['GET /v1/workspace', 'GET /v1/workspace', 'GET /v1/workspace']);

    // A POST without an idempotency key is not repeated on 503 (its work may have been done).
    seen.length = 0;
    answers = [503, 200];
    const unsafe = await client.POST('/dnc', { body: { phone: '+14155550100' } });
    expect(unsafe.response.status).toBe(503);
    expect(seen).toHaveLength(1);
    // With one, it is.
    seen.length = 0;
    answers = [503, 200];
    const keyed = await client.POST('/dnc', { body: { phone: '+14155550100' }, ...withIdempotencyKey('dnc-1') });
    expect(keyed.response.status).toBe(200);
    expect(seen).toHaveLength(2);

    expect(retryAfterMs(new Response(null, { headers: { 'Retry-After': '2' } }))).toBe(2000);
    expect(retryAfterMs(new Response(null, { headers: { 'Retry-After': new Date(10_000).toUTCString() } }), 4_000)).toBe(6_000);
  });

  it('README example: push a lead, wait for its result; then page through results', async () => {
    const worker: WorkerApp = await startWorker();
    try {
      const campaign = await runningApiCampaign(t, ws.key, ws.workspaceId, { timezone: 'UTC', dailyWindowStart: '00:00', dailyWindowEnd: '00:00' });

      // --- the README's example, as written there ---
      const client = createOutreachClient({ baseUrl, apiKey: ws.key });
      const { data: lead, error } = await client.POST('/v1/campaigns/{campaignId}/leads', {
        params: { path: { campaignId: campaign.id } },
        body: { idempotencyKey: 'order-1001', phone: '+14155550127', name: 'Ada' },
      });
      if (!lead) throw new Error(`lead refused: ${JSON.stringify(error)}`);
      let resultId: string | null = null;
      while (!resultId) {
        await new Promise((r) => setTimeout(r, 200));
        const { data } = await client.GET('/v1/campaigns/{campaignId}/leads/{leadId}', { params: { path: { campaignId: campaign.id, leadId: lead.id } } });
        resultId = data?.resultId ?? null;
      }
      const { data: result, error: failed } = await client.GET('/v1/results/{resultId}', { params: { path: { resultId } } });
      if (!result) throw new Error(JSON.stringify(failed));
      // --- end of the example ---

      expect(result).toMatchObject({ type: 'api.lead.result', data: { leadId: lead.id, status: 'completed', disposition: 'completed' } });
      // The call happened before the result that reports it (the sandbox never invents future times).
      const call = result.data.finalCall!;
      expect(Date.parse(call.answeredAt!)).toBeLessThanOrEqual(Date.parse(call.endedAt!));
      expect(Date.parse(call.endedAt!)).toBeLessThanOrEqual(Date.parse(result.createdAt));
      expect(call.durationMs).toBeGreaterThan(0);
      const all: string[] = [];
      for await (const r of eachByCursor((cursor) => client.GET('/v1/results', { params: { query: { cursor, limit: 1 } } }))) all.push(r.id);
      expect(all).toEqual([resultId]);
    } finally {
      await worker.close();
    }
  }, 60_000);
});
