// A real worker process (node dist/apps/worker/src/main.js) killed with SIGKILL in the middle of an
// export, then a second one started (issue 16, item 5): while the job is unfinished no file is
// visible under its name (only a `.part-` file), and BullMQ hands the stalled job to the second
// worker, which writes the whole file again from the first row and removes the dead one's partial.
import { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createCampaign } from '../campaigns/campaign-helpers';
import { waitFor } from '../engine/engine-harness';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { killProcess, spawnWorker } from '../support/worker-process';

const CONTACTS = 150_000;
const exportDir = mkdtempSync(join(tmpdir(), 'exports-crash-'));

describe('a worker killed mid-export', () => {
  let t: TestApp;
  let ws: Seeded;
  let first: ChildProcess | null = null;
  let second: ChildProcess | null = null;

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    ws = await t.seed({ features: ['exports'] });
  }, 120_000);
  afterAll(async () => {
    await killProcess(first, 'SIGKILL');
    await killProcess(second, 'SIGTERM');
    await t?.close();
    rmSync(exportDir, { recursive: true, force: true });
  });

  const job = async (id: string) => (await t.dataSource.query(`SELECT status, progress, row_count FROM export_jobs WHERE id = $1`, [id]))[0];
  const files = () => {
    try {
      return readdirSync(join(exportDir, ws.workspaceId));
    } catch {
      return [];
    }
  };

  it('SIGKILL while writing: no half file under the export name; the next worker writes it whole', async () => {
    const campaign = await createCampaign(t, ws.key);
    // Seeded on a connection of its own: the API's pool has a 700 ms query timeout.
    const db = new Client({ connectionString: t.config.databaseUrl });
    await db.connect();
    await db.query(
      `INSERT INTO campaign_contacts (campaign_id, workspace_id, phone, name, status, attempts, last_outcome)
       SELECT $1, $2, '+1' || (4150000000 + i)::text, 'Contact ' || i, 'FAILED', 2, 'no_answer' FROM generate_series(1, ${CONTACTS}) i ORDER BY i`,
      [campaign.id, ws.workspaceId],
    );
    await db.end();
    const env = { EXPORT_DIR: exportDir };
    first = await spawnWorker(env);
    const res = await t.http.post(`/campaigns/${campaign.id}/exports`).set(bearer(ws.key)).send({ format: 'CSV', period: 'all_time' });
    expect(res.status).toBe(202);
    const name = `${res.body.id}.csv`;

    // Kill it once a partial file holds some rows.
    await waitFor('a partial file', async () => files(), (f) => f.some((n) => n.startsWith(`${name}.part-`)), 60_000);
    await killProcess(first, 'SIGKILL');
    first = null;
    expect((await job(res.body.id)).status).toBe('running');
    expect(files()).not.toContain(name);
    expect(files().filter((n) => n.startsWith(`${name}.part-`))).toHaveLength(1);
    expectNotReady(await t.http.get(`/exports/${res.body.id}/download`).set(bearer(ws.key)));

    // BullMQ notices the stalled job once its lock expires (15 s, see exports.processor.ts) and gives it to the new worker.
    second = await spawnWorker(env);
    const done = await waitFor('the export ready', () => job(res.body.id), (j) => j.status === 'ready' || j.status === 'failed', 150_000);
    expect(done).toEqual({ status: 'ready', progress: 100, row_count: CONTACTS });
    expect(files()).toEqual([name]);
    const lines = readFileSync(join(exportDir, ws.workspaceId, name), 'utf8').split('\r\n');
    expect(lines[0].replace(/^\uFEFF/, '').split(',')[0]).toBe('contact_id');
    expect(lines.length).toBe(CONTACTS + 2); // header, rows, and the empty string after the last CRLF
  }, 300_000);
});

function expectNotReady(res: { status: number; body: { error?: string } }): void {
  expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'invalid_request' });
}
