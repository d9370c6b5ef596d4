// The outage drill (issue 24): API leads pushed by concurrent clients into a RUNNING campaign while a
// real worker process dials them through the sandbox, and Postgres (or Redis) is cut through a
// loopback TCP proxy in front of both the API and the worker, then restored. Counts what an
// operator cares about: leads acknowledged, stored, results with the provider's outcome, lost,
// duplicate keys, calls per contact, calls failed although the provider completed them, and how
// long after the restore dispatch made progress again.
//
// In `npm test` (bounded): 100 leads, one 10 s Postgres cut. `npm run drill:outage` (DRILL_SCALE=full):
// 400 leads, Postgres cut 10 s and 60 s, Redis cut 10 s and 60 s, ending with one table.
import { ChildProcess } from 'node:child_process';
import { Pool } from 'pg';
import { attachNumber, createCampaign, credit } from '../campaigns/campaign-helpers';
import { sandboxNumber } from '../engine/engine-harness';
import { pushLead } from '../results/results-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { extraOccurrences, reportDrill } from '../support/drill';
import { sleep, TcpProxy } from '../support/tcp-proxy';
import { bearer, prepareTestDatabase, Seeded, TestApp } from '../support/test-app';
import { OUTAGE_CONNECT_TIMEOUT_MS } from '../support/proxied-app';
import { killProcess, spawnWorker } from '../support/worker-process';

type Target = 'postgres' | 'redis';
interface Scenario {
  target: Target;
  cutSecs: number;
}

const FULL = process.env.DRILL_SCALE === 'full';
const PLAN = FULL
  ? { leads: 400, clients: 20, lines: 20, latencyMs: 1500, gapMs: 300, scenarios: cuts([10, 60], ['postgres', 'redis']) }
  : { leads: 100, clients: 10, lines: 20, latencyMs: 1000, gapMs: 300, scenarios: cuts([10], ['postgres']) };
/** After the restore, dispatch must make progress within this long (issue 24, item 4). */
const RECOVERY_BOUND_SECS = 30;

function cuts(seconds: number[], targets: Target[]): Scenario[] {
  return targets.flatMap((target) => seconds.map((cutSecs) => ({ target, cutSecs })));
}

interface DrillRow {
  drill: string;
  acknowledged: number;
  stored: number;
  results: number;
  providerOutcome: number;
  lost: number;
  duplicateKeys: number;
  maxCallsPerContact: number;
  failedButCompleted: number;
  recoverySecs: number | null;
}

describe(`outage drill (${FULL ? 'full' : 'bounded'}): ${PLAN.leads} API leads across a cut`, () => {
  const proxies = {} as Record<Target, TcpProxy>;
  let t: TestApp;
  let ws: Seeded;
  let worker: ChildProcess | null = null;
  let db: Pool;
  const rows: DrillRow[] = [];

  beforeAll(async () => {
    await prepareTestDatabase();
    const real = { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: process.env.REDIS_URL! };
    proxies.postgres = await TcpProxy.forUrl(real.DATABASE_URL);
    proxies.redis = await TcpProxy.forUrl(real.REDIS_URL);
    const behindProxies = { DATABASE_URL: proxies.postgres.rewrite(real.DATABASE_URL), REDIS_URL: proxies.redis.rewrite(real.REDIS_URL) };
    Object.assign(process.env, behindProxies);
    try {
      t = await TestApp.create();
    } finally {
      Object.assign(process.env, real);
    }
    await t.reset();
    ws = await t.seed({ concurrency: PLAN.lines });
    db = new Pool({ connectionString: real.DATABASE_URL, max: 2 }); // the drill's own eyes, never cut
    worker = await spawnWorker({ ...behindProxies, DB_CONNECT_TIMEOUT_MS: OUTAGE_CONNECT_TIMEOUT_MS, SANDBOX_VOICE_LATENCY_MS: String(PLAN.latencyMs), DISPATCH_TICK_MS: '100' });
  }, 120_000);

  afterAll(async () => {
    for (const proxy of Object.values(proxies)) await proxy?.setMode('pass');
    await killProcess(worker, 'SIGTERM');
    await t?.close();
    for (const proxy of Object.values(proxies)) await proxy?.close();
    await db?.end();
    if (rows.length) printTable(rows);
  });

  for (const scenario of PLAN.scenarios) {
    const name = `${scenario.target}-cut-${scenario.cutSecs}s-during-calls`;
    it(
      `${scenario.target} cut for ${scenario.cutSecs} s: every lead stored once, every result with the provider's outcome, nobody dialled twice, dispatch back within ${RECOVERY_BOUND_SECS} s`,
      async () => {
        const row = await runScenario(name, scenario);
        rows.push(row);
        reportDrill(name, { accepted: row.acknowledged, delivered: row.results, lost: row.lost, duplicated: row.duplicateKeys + (row.maxCallsPerContact > 1 ? 1 : 0) });
        expect(row).toEqual({
          drill: name,
          acknowledged: PLAN.leads,
          stored: PLAN.leads,
          results: PLAN.leads,
          providerOutcome: PLAN.leads,
          lost: 0,
          duplicateKeys: 0,
          maxCallsPerContact: 1,
          failedButCompleted: 0,
          recoverySecs: expect.any(Number),
        });
        expect(row.recoverySecs).toBeLessThanOrEqual(RECOVERY_BOUND_SECS);
      },
      (scenario.cutSecs + 240) * 1000,
    );
  }

  async function runScenario(name: string, { target, cutSecs }: Scenario): Promise<DrillRow> {
    const agent = await createActiveAgent(t, ws.key);
    const campaign = await createCampaign(t, ws.key, {
      source: 'API',
      agentId: agent.id,
      retryCount: 0,
      timezone: 'UTC',
      dailyWindowStart: '00:00',
      dailyWindowEnd: '00:00', // dials around the clock
      recipientHours: 'off',
    });
    await attachNumber(t, ws.key, ws.workspaceId, campaign.id);
    await credit(t, ws.workspaceId, 10_000_000);
    const started = await t.http.post(`/campaigns/${campaign.id}/start`).set(bearer(ws.key)).send({ reservedConcurrency: PLAN.lines });
    expect({ status: started.status, body: started.status === 200 ? null : started.body }).toEqual({ status: 200, body: null });
    const campaignId = campaign.id as string;
    const offset = rows.length * PLAN.leads; // each scenario its own numbers; last digit 5–9: the sandbox completes them

    // Clients push with the same idempotency key until acknowledged (2xx); 503 and 429 are retried.
    let next = 0;
    const acknowledged = new Set<number>();
    const client = async () => {
      for (let i = next++; i < PLAN.leads; i = next++) {
        const body = { idempotencyKey: `${name}-${i}`, phone: sandboxNumber(offset + i, 5 + (i % 5)) };
        for (const deadline = Date.now() + (cutSecs + 60) * 1000; Date.now() < deadline; ) {
          const res = await pushLead(t, ws.key, campaignId, body).catch(() => null);
          if (res && res.status >= 200 && res.status < 300) {
            acknowledged.add(i);
            break;
          }
          if (res && res.status !== 503 && res.status !== 429) throw new Error(`lead ${i}: ${res.status} ${JSON.stringify(res.body)}`);
          await sleep(200);
        }
        await sleep(PLAN.gapMs);
      }
    };
    const pushing = Promise.all(Array.from({ length: PLAN.clients }, client));

    // Cut once a wave of calls is in flight: they end during the cut, with nowhere to store their outcome.
    await until(`calls in flight (${name})`, async () => (await count(`status IN ('QUEUED', 'DIALING', 'RINGING', 'IN_PROGRESS')`, campaignId)) >= PLAN.lines / 2, 60_000);
    await proxies[target].setMode('refuse');
    await sleep(cutSecs * 1000);
    const restoredAt = new Date();
    await proxies[target].setMode('pass');

    const recoverySecs = await timeToFirstCallAfter(campaignId, restoredAt);
    await pushing;
    await until(
      `every acknowledged lead to have its result (${name})`,
      async () => (await results(campaignId)).length >= acknowledged.size && (await count(`status IN ('QUEUED', 'DIALING', 'RINGING', 'IN_PROGRESS')`, campaignId)) === 0,
      180_000,
    );

    const found = await results(campaignId);
    // A result without the provider's outcome is what an operator would ask about: print it with its calls.
    const odd = (
      await db.query(
        `SELECT r.lead_id, r.envelope #> '{data,finalCall}' AS "finalCall", r.envelope #>> '{data,disposition}' AS disposition,
                (SELECT json_agg(json_build_object('status', c.status, 'outcome', c.outcome, 'providerDisposition', c.provider_disposition))
                   FROM calls c WHERE c.contact_id = r.lead_id) AS calls
           FROM lead_results r
          WHERE r.campaign_id = $1 AND r.envelope IS NOT NULL
            AND NOT (r.envelope #>> '{data,finalCall,outcome}' = 'completed' AND r.envelope #>> '{data,disposition}' = 'completed')`,
        [campaignId],
      )
    ).rows;
    if (odd.length > 0) process.stdout.write(`${name}: results without the provider's outcome: ${JSON.stringify(odd)}\n`);
    const [{ stored }] = (await db.query(`SELECT count(*)::int AS stored FROM api_lead_keys WHERE campaign_id = $1`, [campaignId])).rows;
    const contacts = (await db.query(`SELECT phone FROM campaign_contacts WHERE campaign_id = $1`, [campaignId])).rows as Array<{ phone: string }>;
    const perContact = (await db.query(`SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1 GROUP BY contact_id`, [campaignId])).rows as Array<{ n: number }>;
    const failedButCompleted = await count(`status = 'FAILED' AND provider_disposition IN ('reaped', 'no_provider_record')`, campaignId);
    // The next scenario reserves the workspace's lines for its own campaign.
    const stopped = await t.http.post(`/campaigns/${campaignId}/stop`).set(bearer(ws.key)).send({});
    expect(stopped.status).toBe(200);
    return {
      drill: name,
      acknowledged: acknowledged.size,
      stored,
      results: found.length,
      providerOutcome: found.filter((r) => r.outcome === 'completed' && r.disposition === 'completed').length,
      lost: acknowledged.size - found.length,
      duplicateKeys: extraOccurrences(contacts.map((c) => c.phone)),
      maxCallsPerContact: Math.max(0, ...perContact.map((r) => r.n)),
      failedButCompleted,
      recoverySecs,
    };
  }

  async function count(where: string, campaignId: string): Promise<number> {
    const { rows: found } = await db.query(`SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1 AND ${where}`, [campaignId]);
    return found[0].n as number;
  }

  async function results(campaignId: string): Promise<Array<{ outcome: string | null; disposition: string | null }>> {
    const { rows: found } = await db.query(
      `SELECT envelope #>> '{data,finalCall,outcome}' AS outcome, envelope #>> '{data,disposition}' AS disposition
         FROM lead_results WHERE campaign_id = $1 AND envelope IS NOT NULL`,
      [campaignId],
    );
    return found;
  }

  /** Seconds from the restore until a call starts that was not started before it (dispatch is moving again). */
  async function timeToFirstCallAfter(campaignId: string, restoredAt: Date): Promise<number | null> {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const { rows: found } = await db.query(`SELECT min(started_at) AS first FROM calls WHERE campaign_id = $1 AND started_at > $2`, [
        campaignId,
        restoredAt,
      ]);
      if (found[0].first) return Math.round((Date.now() - restoredAt.getTime()) / 100) / 10;
      await sleep(100);
    }
    return null;
  }
});

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function printTable(rows: DrillRow[]): void {
  const header = ['drill', 'acknowledged', 'stored', 'results', 'provider outcome', 'lost', 'duplicate keys', 'max calls/contact', 'failed but completed', 'recovery s'];
  const cells = rows.map((r) => [
    r.drill,
    r.acknowledged,
    r.stored,
    r.results,
    r.providerOutcome,
    r.lost,
    r.duplicateKeys,
    r.maxCallsPerContact,
    r.failedButCompleted,
    r.recoverySecs ?? 'n/a',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => String(c[i]).length)));
  const line = (values: Array<string | number>) => values.map((v, i) => (i === 0 ? String(v).padEnd(widths[i]) : String(v).padStart(widths[i]))).join('  ');
  process.stdout.write(`\noutage drill (${PLAN.leads} leads, ${PLAN.clients} clients, ${PLAN.lines} lines, sandbox latency ${PLAN.latencyMs} ms)\n`);
  process.stdout.write(`${line(header)}\n${cells.map(line).join('\n')}\n`);
}
