/*
 * The minimal raw baseline (issue 19): a bare node:http + pg server, no framework, no auth, no
 * validation, no logging, in its own scratch tables (schema bench_raw). It does the least a lead
 * push can do and keep its guarantees, in ONE statement (one round trip, one implicit
 * transaction):
 *   - the idempotency row with the stored response (a replay answers it and inserts nothing),
 *   - the lead row (only when the idempotency row is new),
 *   - the outbox row (likewise);
 * and a single-row read by primary key. Every service path is compared with this floor. Both
 * statements are named (server-side prepared) as the service's hot statements are (decisions.md
 * 46.10), and keep Postgres' default generic plan, which the service gives up (46.11): the push
 * only inserts and the read's table is filled first, so the floor does not re-plan what it need not.
 *
 *   POST /leads   {"campaignId","idempotencyKey","phone","name"?,"fields"?}  → 201 (200 on replay)
 *   GET  /results/<uuid>                                                    → 200 stored envelope
 */
import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';

export const SCHEMA = `
CREATE SCHEMA IF NOT EXISTS bench_raw;
CREATE TABLE IF NOT EXISTS bench_raw.idempotency (campaign_id uuid NOT NULL, key text NOT NULL, response jsonb NOT NULL, PRIMARY KEY (campaign_id, key));
CREATE TABLE IF NOT EXISTS bench_raw.leads (id uuid PRIMARY KEY, campaign_id uuid NOT NULL, phone text NOT NULL, name text, fields jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), UNIQUE (campaign_id, phone));
CREATE TABLE IF NOT EXISTS bench_raw.outbox (id bigserial PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS bench_raw.results (id uuid PRIMARY KEY, envelope jsonb NOT NULL);`;

// $1 campaign, $2 key, $3 new lead id, $4 phone, $5 name, $6 fields.
export const PUSH = `
WITH k AS (
  INSERT INTO bench_raw.idempotency (campaign_id, key, response)
  VALUES ($1, $2, jsonb_build_object('id', $3::uuid, 'campaignId', $1::uuid, 'idempotencyKey', $2::text, 'phone', $4::text,
                                     'name', $5::text, 'fields', $6::jsonb, 'status', 'PENDING', 'createdAt', now()))
  ON CONFLICT DO NOTHING RETURNING response),
l AS (INSERT INTO bench_raw.leads (id, campaign_id, phone, name, fields) SELECT $3, $1, $4, $5, $6 FROM k RETURNING id),
o AS (INSERT INTO bench_raw.outbox (payload) SELECT jsonb_build_object('campaignId', $1::uuid, 'leadId', id) FROM l)
SELECT response FROM k`;

const READ = `SELECT envelope::text AS body FROM bench_raw.results WHERE id = $1`;

/** Deletes one run's rows from the scratch tables (only its own: another run may share them). */
export async function dropScratchRows(pool: Pool, campaignId: string, resultId: string): Promise<void> {
  for (const table of ['idempotency', 'leads']) await pool.query(`DELETE FROM bench_raw.${table} WHERE campaign_id = $1`, [campaignId]).catch(() => undefined);
  await pool.query(`DELETE FROM bench_raw.outbox WHERE payload->>'campaignId' = $1`, [campaignId]).catch(() => undefined);
  await pool.query(`DELETE FROM bench_raw.results WHERE id = $1`, [resultId]).catch(() => undefined);
}

export interface RawBaseline {
  url: string;
  /** The id of the seeded row GET /results/<id> reads. */
  resultId: string;
  /** Campaign id to push to (scratch: no campaign row exists). */
  campaignId: string;
  close(): Promise<void>;
}

/** Starts the raw server on 127.0.0.1 (port 0 = any) with its own pool; `envelope` is the row GET returns (use the service's, so both send the same bytes). */
export async function startRawBaseline(databaseUrl: string, options: { poolSize?: number; envelope?: unknown; port?: number } = {}): Promise<RawBaseline> {
  const pool = new Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  await pool.query(SCHEMA);
  const resultId = randomUUID();
  const campaignId = randomUUID();
  await pool.query(`INSERT INTO bench_raw.results (id, envelope) VALUES ($1, $2::jsonb)`, [resultId, JSON.stringify(options.envelope ?? { id: resultId, outcome: 'completed' })]);
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    const fail = (error: Error) => send(500, JSON.stringify({ error: error.message }));
    if (req.method === 'GET' && req.url?.startsWith('/results/')) {
      pool
        .query({ name: 'raw_read', text: READ }, [req.url.slice(9)])
        .then(({ rows }) => (rows.length ? send(200, rows[0].body) : send(404, '{"error":"not_found"}')))
        .catch(fail);
      return;
    }
    if (req.method !== 'POST' || req.url !== '/leads') return send(404, '{"error":"not_found"}');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const b = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { campaignId: string; idempotencyKey: string; phone: string; name?: string; fields?: object };
      const args = [b.campaignId, b.idempotencyKey, randomUUID(), b.phone, b.name ?? null, JSON.stringify(b.fields ?? {})];
      pool
        .query({ name: 'raw_push', text: PUSH }, args)
        .then(async ({ rows }) => {
          if (rows.length) return send(201, JSON.stringify(rows[0].response));
          const known = await pool.query(`SELECT response FROM bench_raw.idempotency WHERE campaign_id = $1 AND key = $2`, [b.campaignId, b.idempotencyKey]);
          send(200, JSON.stringify(known.rows[0].response));
        })
        .catch(fail);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    resultId,
    campaignId,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dropScratchRows(pool, campaignId, resultId);
      await pool.end();
    },
  };
}
