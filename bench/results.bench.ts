/*
 * Lead push and result read benchmark: autocannon at 50 connections against the real API
 * (POST /v1/campaigns/{id}/leads with a new idempotency key and phone per request, and
 * GET /v1/results/{id}), each next to a raw node:http + pg server that runs the same SQL
 * (API-key lookup, the push transaction, the API-log insert; the result read) in the same run.
 * The raw servers skip Nest, validation, the Redis rate limiter and logging: the ratio is what
 * the framework and those layers cost.
 *
 *   npm run bench:results                        # 10 s per phase
 *   npm run bench:results -- --seconds 30        # longer phases
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench_results),
 * created and migrated when missing; Redis as REDIS_URL. Not part of `npm test`.
 */
import 'reflect-metadata';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ProvisionAgent } from '@outreach/agents';
import { CreditWallet } from '@outreach/billing';
import { configureApiApp, hashApiKey } from '@outreach/platform';
import { RecordLeadResult } from '@outreach/results';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { ApiKeyAdministration, WorkspaceAdministration } from '@outreach/workspaces';
import { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

const SECONDS = Number(argument('seconds', process.env.BENCH_SECONDS ?? '10'));
const CONNECTIONS = 50;
if (!Number.isInteger(SECONDS) || SECONDS < 1) throw new Error('--seconds must be a positive whole number');
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench_results';
process.env.REDIS_PREFIX = process.env.REDIS_PREFIX ?? 'outreach_bench_results';
process.env.LOG_LEVEL = 'silent';
process.env.RATE_LIMIT_PER_MINUTE = '10000000';
process.env.DB_QUERY_TIMEOUT_MS = process.env.DB_QUERY_TIMEOUT_MS ?? '5000';
process.env.DB_CONNECT_TIMEOUT_MS = process.env.DB_CONNECT_TIMEOUT_MS ?? '5000';
const POOL_SIZE = Number(process.env.DB_POOL_SIZE ?? '10');

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type AutocannonRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- autocannon ships no types
const autocannon = require('autocannon') as Autocannon;

/** Distinct valid US numbers: +1 415 <exchange 200-999> <line>. */
// A random start: phone numbers are unique across the service, and earlier runs left theirs.
let phoneCounter = Math.floor(Math.random() * 7_000_000);
function nextPhone(prefix: number): string {
  const n = phoneCounter++;
  return `+1${prefix}${200 + (Math.floor(n / 10000) % 800)}${String(n % 10000).padStart(4, '0')}`;
}

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A workspace with a key, a RUNNING API campaign (sandbox agent, number, credit) and one result. */
async function seed(app: INestApplication, base: string) {
  const { workspace } = await app.get(WorkspaceAdministration).create({ name: `bench-${Date.now()}`, features: ['api_results'] });
  const issued = await app.get(ApiKeyAdministration).create({ workspaceId: workspace.id, name: 'bench', scopes: ['campaigns.view', 'campaigns.edit', 'agents.edit', 'agents.view'] });
  const headers = { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(json);
  const agent = await post('/agents', { name: `Bench agent ${Date.now()}`, prompt: 'You are calling about an enquiry.', voice: 'aria' });
  await app.get(ProvisionAgent).execute(agent.id as string);
  await app.get(CreditWallet).execute({ workspaceId: workspace.id, amountMinor: 1_000_000_000 });
  const campaigns: string[] = [];
  for (const name of ['api', 'raw']) {
    const campaign = await post('/v1/campaigns', { name: `Bench ${name} ${Date.now()}`, channel: 'VOICE', source: 'API', agentId: agent.id });
    const number = await app.get(PhoneNumberAdministration).add({ workspaceId: workspace.id, e164: nextPhone(212) });
    await post(`/campaigns/${campaign.id}/phone-numbers`, { phoneNumberId: number.id });
    await post(`/campaigns/${campaign.id}/start`, {});
    campaigns.push(campaign.id as string);
  }
  const lead = await post(`/v1/campaigns/${campaigns[0]}/leads`, { idempotencyKey: 'seed', phone: nextPhone(646), name: 'Seed', fields: { plan: 'pro' } });
  await app.get(DataSource).query(`UPDATE campaign_contacts SET status = 'COMPLETED', attempts = 1, last_outcome = 'completed' WHERE id = $1`, [lead.id]);
  const resultId = await app.get(RecordLeadResult).execute(lead.id as string);
  return { key: issued.key, apiCampaign: campaigns[0], rawCampaign: campaigns[1], resultId: resultId! };
}

// ---- the raw server: node:http + pg, the same SQL --------------------------------------------

const KEY_LOOKUP = `SELECT k.id AS key_id, k.key_hash, k.revoked_at, k.expires_at, k.scopes,
       w.id AS workspace_id, w.name AS workspace_name, w.status AS workspace_status, w.features, w.concurrency, w.rate_limit_per_minute,
       m.id AS member_id, m.role AS member_role, m.status AS member_status
  FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id JOIN members m ON m.id = k.member_id WHERE k.key_hash = $1`;

function rawServer(pool: Pool): Server {
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, Buffer.concat(chunks).toString('utf8'))
        .then(([status, body]) => send(res, status, body))
        .catch((error: Error) => send(res, 500, { error: error.message }));
    });
  });

  async function handle(req: IncomingMessage, raw: string): Promise<[number, unknown]> {
    const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const [principal] = (await pool.query(KEY_LOOKUP, [hashApiKey(token)])).rows;
    if (!principal) return [401, { error: 'invalid_api_key' }];
    const workspaceId = principal.workspace_id as string;
    const push = /^\/v1\/campaigns\/([0-9a-f-]{36})\/leads$/.exec(req.url ?? '');
    if (req.method === 'POST' && push) {
      const started = process.hrtime.bigint();
      const result = await pushLead(workspaceId, push[1], JSON.parse(raw));
      pool
        .query(
          `INSERT INTO api_logs (workspace_id, campaign_id, method, route, path, status, error_code, latency_ms, key_id, request_id, created_at)
           VALUES ($1, $2, 'POST', '/v1/campaigns/:campaignId/leads', $3, $4, NULL, $5, $6, NULL, now())`,
          [workspaceId, push[1], req.url, result[0], Number((process.hrtime.bigint() - started) / 1_000_000n), principal.key_id],
        )
        .catch(() => undefined);
      return result;
    }
    const read = /^\/v1\/results\/([0-9a-f-]{36})$/.exec(req.url ?? '');
    if (req.method === 'GET' && read) {
      const [row] = (await pool.query(`SELECT id, seq, workspace_id, campaign_id, lead_id, envelope, created_at, expires_at FROM lead_results WHERE id = $1 AND workspace_id = $2`, [read[1], workspaceId])).rows;
      return row ? [200, row.envelope] : [404, { error: 'result_not_found' }];
    }
    return [404, { error: 'not_found' }];
  }

  async function pushLead(workspaceId: string, campaignId: string, body: { idempotencyKey: string; phone: string; name?: string; fields?: object }): Promise<[number, unknown]> {
    const client: PoolClient = await pool.connect();
    try {
      await client.query('BEGIN');
      const [campaign] = (await client.query(`SELECT id, source, status, country_code FROM campaigns WHERE id = $1 AND workspace_id = $2 FOR KEY SHARE`, [campaignId, workspaceId])).rows;
      if (!campaign || campaign.status !== 'RUNNING') throw new Error('campaign not running');
      const lead = { phone: body.phone, name: body.name ?? null, fields: body.fields ?? {} };
      const known = (await client.query(`SELECT * FROM api_lead_keys WHERE campaign_id = $1 AND idempotency_key = $2`, [campaignId, body.idempotencyKey])).rows;
      if (known.length) {
        await client.query('COMMIT');
        return [200, known[0].response];
      }
      await client.query(`SET LOCAL lock_timeout = '500ms'`);
      await client.query(
        `INSERT INTO api_lead_keys (campaign_id, idempotency_key, workspace_id, fingerprint, lead, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, now())
         ON CONFLICT (campaign_id, idempotency_key) DO NOTHING RETURNING 1`,
        [campaignId, body.idempotencyKey, workspaceId, 'fingerprint', JSON.stringify(lead)],
      );
      await client.query(`SET LOCAL lock_timeout TO DEFAULT`);
      const [contact] = (
        await client.query(
          `WITH ins AS (INSERT INTO campaign_contacts (campaign_id, workspace_id, phone, name, fields) VALUES ($1, $2, $3, $4, $5::jsonb)
             ON CONFLICT (campaign_id, phone) DO NOTHING RETURNING id, status, attempts, created_at),
           counted AS (INSERT INTO campaign_contact_counts AS k (campaign_id, shard, n) SELECT $1, (pg_backend_pid() % 16)::smallint, 1 WHERE EXISTS (SELECT 1 FROM ins)
             ON CONFLICT (campaign_id, shard) DO UPDATE SET n = k.n + 1)
           SELECT * FROM ins`,
          [campaignId, workspaceId, lead.phone, lead.name, JSON.stringify(lead.fields)],
        )
      ).rows;
      await client.query(`INSERT INTO outbox (queue, name, payload) VALUES ('campaigns', 'dispatch', $1::jsonb) RETURNING id`, [JSON.stringify({ campaignId })]);
      await client.query(`SELECT pg_notify('outbox', '')`);
      await client.query(`SELECT id, campaign_id, phone, name, fields, status, attempts FROM campaign_contacts WHERE campaign_id = $1 AND id = $2`, [campaignId, contact.id]);
      const response = { id: contact.id, campaignId, idempotencyKey: body.idempotencyKey, ...lead, status: contact.status, attempts: contact.attempts, resultId: null, deduplicated: false, createdAt: contact.created_at };
      await client.query(`UPDATE api_lead_keys SET lead_id = $3, response = $4::jsonb WHERE campaign_id = $1 AND idempotency_key = $2`, [campaignId, body.idempotencyKey, contact.id, JSON.stringify(response)]);
      await client.query('COMMIT');
      return [201, response];
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

// ---- the run -----------------------------------------------------------------------------

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

async function load(name: string, url: string, key: string, push: { campaignId: string; area: number } | null, resultId?: string): Promise<Row> {
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    requests: [
      push
        ? {
            method: 'POST',
            path: `/v1/campaigns/${push.campaignId}/leads`,
            setupRequest: (req: AutocannonRequest) => ({
              ...req,
              body: JSON.stringify({ idempotencyKey: `${name}-${Date.now()}-${n++}`, phone: nextPhone(push.area), name: 'Bench', fields: { plan: 'pro', seats: 3 } }),
            }),
          }
        : { method: 'GET', path: `/v1/results/${resultId}` },
    ],
  });
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad: result.non2xx + result.errors + result.timeouts };
}

async function main(): Promise<void> {
  const app = await NestFactory.create((await import('../apps/api/src/api.module')).ApiModule, { bodyParser: false, logger: false });
  configureApiApp(app);
  await app.listen(0, '127.0.0.1');
  const apiBase = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
  const raw = rawServer(pool);
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const rawBase = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;

  try {
    const s = await seed(app, apiBase);
    console.log(`results bench: ${CONNECTIONS} connections, ${SECONDS} s per phase, pool ${POOL_SIZE} connections each, database ${new URL(process.env.DATABASE_URL!).pathname.slice(1)}`);
    const rows: Array<[Row, Row]> = [];
    rows.push([
      await load('api-push', apiBase, s.key, { campaignId: s.apiCampaign, area: 415 }),
      await load('raw-push', rawBase, s.key, { campaignId: s.rawCampaign, area: 510 }),
    ]);
    rows.push([await load('api-result', apiBase, s.key, null, s.resultId), await load('raw-result', rawBase, s.key, null, s.resultId)]);

    const f = (x: number, d = 1) => x.toFixed(d).padStart(9);
    console.log(`\n${'phase'.padEnd(40)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}`);
    for (const [label, [api, rawRow]] of [['POST /v1/campaigns/{id}/leads', rows[0]], ['GET /v1/results/{id}', rows[1]]] as const) {
      console.log(`${(label + ' (API)').padEnd(40)}${f(api.rps)}${f(api.p50)}${f(api.p99)}${String(api.bad).padStart(9)}`);
      console.log(`${(label + ' (raw)').padEnd(40)}${f(rawRow.rps)}${f(rawRow.p50)}${f(rawRow.p99)}${String(rawRow.bad).padStart(9)}`);
      console.log(`${'  ratio API / raw'.padEnd(40)}${f(api.rps / rawRow.rps, 2)}${f(api.p50 / Math.max(rawRow.p50, 0.01), 2)}${f(api.p99 / Math.max(rawRow.p99, 0.01), 2)}`);
    }
  } finally {
    raw.close();
    await pool.end();
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
