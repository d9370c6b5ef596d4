/*
 * The same-SQL baseline (the second column of `npm run bench`): a raw node:http + pg server that
 * runs the SQL the service ran when issue 19 was filed — the API-key lookup, the push transaction
 * (campaign check, idempotency row, contact + count, outbox, NOTIFY, stored response), the API-log
 * insert; the result read. It skips Nest, validation, the Redis rate limiter and logging, so the
 * service / same-SQL ratio is what the framework and those layers cost, and raw-minimum /
 * same-SQL is what the SQL itself costs. Kept as it was measured; it does not follow the service.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { hashApiKey } from '@outreach/platform';
import { Pool, PoolClient } from 'pg';

const KEY_LOOKUP = `SELECT k.id AS key_id, k.key_hash, k.revoked_at, k.expires_at, k.scopes,
       w.id AS workspace_id, w.name AS workspace_name, w.status AS workspace_status, w.features, w.concurrency, w.rate_limit_per_minute,
       m.id AS member_id, m.role AS member_role, m.status AS member_status
  FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id JOIN members m ON m.id = k.member_id WHERE k.key_hash = $1`;

export function sameSqlServer(pool: Pool): Server {
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
