import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportsHousekeeping, RowLimits, RunExport, XLSX_MAX_DATA_ROWS } from '@outreach/exports';
import { parse } from 'csv-parse/sync';
import type { Response } from 'superagent';
import { readSheet } from 'read-excel-file/node';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { createCampaign, expectError } from '../campaigns/campaign-helpers';
import { waitFor } from '../engine/engine-harness';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';

/*
 * Issue 16: counts, lead segments, custom counts and CSV/XLSX export jobs on a finished campaign of
 * 2,000 contacts (seeded with SQL), exported by the real worker through the outbox, parsed back and
 * compared with the database row for row; every export code provoked; expiry and housekeeping.
 */
const exportDir = mkdtempSync(join(tmpdir(), 'exports-e2e-'));
process.env.EXPORT_DIR = exportDir;

/** The RowLimits seam (decisions.md 26.7): the sheet's limit unless a test narrows it. */
const limits = new (class extends RowLimits {
  max = XLSX_MAX_DATA_ROWS;
  xlsxMaxRows(): number {
    return this.max;
  }
})();

const CONTACTS = 2000;
const KEYS = [{ name: 'budget', type: 'integer', description: 'Budget in dollars' }];
const METRICS = [{ key: 'qualified', label: 'Qualified', allowedValues: ['yes', 'no'], prompt: 'Is the lead qualified?' }];
const HEADER = [
  'contact_id', 'phone', 'name', 'status', 'attempts', 'outcome', 'last_attempt_at', 'connected_phone',
  'call_id', 'call_started_at', 'call_duration_seconds', 'field.plan', 'field.region', 'extraction.budget', 'metric.qualified',
];

interface DbLead {
  id: string;
  phone: string;
  name: string | null;
  status: string;
  attempts: number;
  last_outcome: string | null;
  last_attempt_at: Date | null;
  connected_phone: string | null;
  fields: Record<string, string>;
  call_id: string | null;
  call_started_at: Date | null;
  duration_ms: number | null;
  extraction: Record<string, unknown> | null;
  evaluation: Record<string, unknown> | null;
}

/** The report as the database has it: each contact with its latest campaign call, in upload order. */
async function dbLeads(t: TestApp, campaignId: string): Promise<DbLead[]> {
  return t.dataSource.query(
    `SELECT c.id, c.phone, c.name, c.status, c.attempts, c.last_outcome, c.last_attempt_at, c.connected_phone, c.fields,
            k.id AS call_id, k.started_at AS call_started_at, k.duration_ms, k.extraction, k.evaluation
       FROM campaign_contacts c
       LEFT JOIN LATERAL (SELECT * FROM calls WHERE contact_id = c.id AND kind = 'campaign' ORDER BY started_at DESC LIMIT 1) k ON true
      WHERE c.campaign_id = $1 ORDER BY c.seq`,
    [campaignId],
  );
}

/** The expected cells of one lead; numbers stay numbers (XLSX) or become text (CSV). */
function expectedCells(l: DbLead): Array<string | number | null> {
  return [
    l.id,
    l.phone,
    l.name,
    l.status,
    l.attempts,
    l.last_outcome,
    l.last_attempt_at?.toISOString() ?? null,
    l.connected_phone,
    l.call_id,
    l.call_started_at?.toISOString() ?? null,
    l.duration_ms === null ? null : Math.round(l.duration_ms / 1000),
    l.fields.plan ?? null,
    l.fields.region ?? null,
    l.extraction?.budget === undefined ? null : String(l.extraction.budget),
    (l.evaluation?.qualified as string | undefined) ?? null,
  ];
}

/** A CSV cell as the contract asks: formula-looking text escaped with a leading quote. */
const csvText = (v: string | number | null): string => (v === null ? '' : typeof v === 'number' ? String(v) : /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/** Collects a file answer as bytes; an error answer (JSON) is parsed as usual. */
const binary = (answer: Response, done: (err: Error | null, body: unknown) => void) => {
  // Node's parsers are handed the incoming message itself (a stream with headers).
  const res = answer as unknown as NodeJS.ReadableStream & { headers: Record<string, string> };
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => {
    const body = Buffer.concat(chunks);
    done(null, String(res.headers['content-type']).includes('json') ? JSON.parse(body.toString('utf8')) : body);
  });
};

describe('exports (issue 16)', () => {
  let t: TestApp;
  let worker: WorkerApp | null = null;
  let ws: Seeded;
  let campaignId: string;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(RowLimits).useValue(limits) });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    rmSync(exportDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.reset();
    limits.max = XLSX_MAX_DATA_ROWS;
    ws = await t.seed({ features: ['exports'] });
    campaignId = (await createCampaign(t, ws.key, { customExtractionKeys: KEYS, customExtractionKeysMode: 'REPLACE', evaluationMetrics: METRICS })).id;
    await seedFinishedCampaign(t, ws.workspaceId, campaignId);
  });
  afterEach(async () => {
    await worker?.close();
    worker = null;
  });

  const startWorker = async () => {
    worker = await WorkerApp.create({ root: WorkerModule, configure: (b) => b.overrideProvider(RowLimits).useValue(limits) });
  };
  const exportRows = async () => (await t.dataSource.query(`SELECT id, status FROM export_jobs ORDER BY created_at`)) as Array<{ id: string; status: string }>;
  const requestExport = (body: Record<string, unknown>, key = ws.key, id = campaignId) => t.http.post(`/campaigns/${id}/exports`).set(bearer(key)).send(body);
  const waitReady = (id: string) =>
    waitFor(`export ${id} ready`, async () => (await t.http.get(`/exports/${id}`).set(bearer(ws.key))).body, (b) => b.status === 'ready' || b.status === 'failed', 60_000);
  const download = (id: string) => t.http.get(`/exports/${id}/download`).set(bearer(ws.key)).buffer(true).parse(binary);

  it('counts: the full report in a period, preset segments and a custom filter match the database', async () => {
    const count = await t.http.get(`/campaigns/${campaignId}/exports/counts`).set(bearer(ws.key)).query({ period: 'all_time' });
    expect(count.status).toBe(200);
    expect(count.body).toEqual({ period: 'all_time', from: null, to: null, count: CONTACTS });

    // Activity of contact i is 2026-11-20T10:00Z + i minutes (DNC contacts: created 2026-11-01).
    const custom = await t.http
      .get(`/campaigns/${campaignId}/exports/counts`)
      .set(bearer(ws.key))
      .query({ period: 'custom', from: '2026-11-20T10:00:00Z', to: '2026-11-20T11:40:00Z' });
    const [{ n }] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1 AND coalesce(last_attempt_at, created_at) >= '2026-11-20T10:00:00Z' AND coalesce(last_attempt_at, created_at) < '2026-11-20T11:40:00Z'`,
      [campaignId],
    );
    expect(n).toBe(97); // minutes 1-99, less the two DO_NOT_CALL contacts (never dialled)
    expect(custom.body).toEqual({ period: 'custom', from: '2026-11-20T10:00:00.000Z', to: '2026-11-20T11:40:00.000Z', count: n });

    const segments = await t.http.get(`/campaigns/${campaignId}/lead-segments`).set(bearer(ws.key));
    expect(segments.status).toBe(200);
    const leads = await dbLeads(t, campaignId);
    const by = (p: (l: DbLead) => boolean) => leads.filter(p).length;
    expect(Object.fromEntries(segments.body.segments.map((s: { key: string; count: number }) => [s.key, s.count]))).toEqual({
      all: CONTACTS,
      pending: by((l) => ['PENDING', 'IN_PROGRESS', 'RETRY_SCHEDULED'].includes(l.status)),
      completed: by((l) => l.status === 'COMPLETED'),
      failed: by((l) => l.status === 'FAILED'),
      not_reached: by((l) => ['no_answer', 'busy', 'voicemail', 'carrier_failure'].includes(l.last_outcome ?? '')),
      interested: by((l) => l.extraction?.interested === true),
      not_interested: by((l) => l.extraction?.interested === false),
      opted_out: by((l) => l.extraction?.do_not_call === true),
      do_not_call: by((l) => l.status === 'DO_NOT_CALL'),
    });
    expect(segments.body.segments.map((s: { key: string }) => s.key)).toEqual(['all', 'pending', 'completed', 'failed', 'not_reached', 'interested', 'not_interested', 'opted_out', 'do_not_call']);
    expect(segments.body.segments.every((s: { key: string; count: number }) => s.count > 0 || s.key === 'pending')).toBe(true);

    const filtered = await t.http
      .post(`/campaigns/${campaignId}/segmented-leads/count`)
      .set(bearer(ws.key))
      .send({ statuses: ['COMPLETED'], evaluation: [{ key: 'qualified', values: ['yes'] }], extraction: [{ key: 'budget', values: ['40', '80', '120'] }] });
    expect(filtered.status).toBe(200);
    expect(filtered.body.count).toBe(by((l) => l.status === 'COMPLETED' && l.evaluation?.qualified === 'yes' && ['40', '80', '120'].includes(String(l.extraction?.budget))));
    expect(filtered.body.count).toBeGreaterThan(0);
  });

  it('CSV: 202 queued, run by the worker through the outbox, streamed as an attachment, parsed back row for row', async () => {
    await startWorker();
    const res = await requestExport({ format: 'CSV', period: 'all_time' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ campaignId, format: 'CSV', status: 'queued', progress: 0, rowCount: null, expiresAt: null, expired: false });

    const done = await waitReady(res.body.id);
    expect(done).toMatchObject({ status: 'ready', progress: 100, rowCount: CONTACTS, error: null });
    const expiresIn = new Date(done.expiresAt).getTime() - new Date(done.finishedAt).getTime();
    expect(expiresIn).toBe(72 * 3600 * 1000);

    const file = await download(res.body.id);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${done.fileName}"`);
    expect(done.fileName).toMatch(/^[A-Za-z0-9_-]+-all_time-\d{4}-\d{2}-\d{2}\.csv$/);

    const rows: string[][] = parse(file.body as Buffer, { bom: true });
    expect(rows[0]).toEqual(HEADER);
    const leads = await dbLeads(t, campaignId);
    expect(rows.length - 1).toBe(CONTACTS);
    expect(rows.slice(1)).toEqual(leads.map((l) => expectedCells(l).map(csvText)));
    // Formula injection: names and phones beginning with = + - @ arrive as text.
    expect(rows.filter((r) => r[2].startsWith("'=HYPERLINK")).length).toBe(20);
    expect(rows.slice(1).every((r) => r[1].startsWith("'+1415"))).toBe(true);

    // No temporary file is left beside the finished one.
    const files = readdirSync(join(exportDir, ws.workspaceId));
    expect(files).toEqual([`${res.body.id}.csv`]);

    const list = await t.http.get(`/campaigns/${campaignId}/exports`).set(bearer(ws.key));
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, items: [{ id: res.body.id, status: 'ready', rowCount: CONTACTS }] });
  });

  it('XLSX: written by a streaming writer, parsed back row for row (strings stay strings, numbers numbers)', async () => {
    await startWorker();
    const res = await requestExport({ format: 'XLSX', period: 'all_time' });
    expect(res.status).toBe(202);
    const done = await waitReady(res.body.id);
    expect(done).toMatchObject({ status: 'ready', rowCount: CONTACTS });

    const file = await download(res.body.id);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${done.fileName}"`);
    const rows = (await readSheet(file.body as Buffer)) as unknown[][];
    expect(rows[0]).toEqual(HEADER);
    const leads = await dbLeads(t, campaignId);
    expect(rows.slice(1)).toEqual(leads.map(expectedCells));
  });

  it('a segment, a custom filter and chosen columns narrow the file', async () => {
    await startWorker();
    const seg = await requestExport({ format: 'CSV', period: 'all_time', segment: 'failed', columns: ['phone', 'status', 'outcome'] });
    expect(seg.status).toBe(202);
    expect(await waitReady(seg.body.id)).toMatchObject({ status: 'ready', rowCount: 200, columns: ['phone', 'status', 'outcome'], segment: 'failed' });
    const rows: string[][] = parse((await download(seg.body.id)).body as Buffer, { bom: true });
    expect(rows[0]).toEqual(['phone', 'status', 'outcome']);
    const failed = (await dbLeads(t, campaignId)).filter((l) => l.status === 'FAILED');
    expect(rows.slice(1)).toEqual(failed.map((l) => [`'${l.phone}`, 'FAILED', 'no_answer']));

    const custom = await requestExport({ format: 'XLSX', period: 'all_time', filter: { evaluation: [{ key: 'qualified', values: ['yes'] }] }, columns: ['contact_id'] });
    expect(custom.status).toBe(202);
    const qualified = (await dbLeads(t, campaignId)).filter((l) => l.evaluation?.qualified === 'yes');
    expect(await waitReady(custom.body.id)).toMatchObject({ status: 'ready', rowCount: qualified.length });
    const sheet = (await readSheet((await download(custom.body.id)).body as Buffer)) as unknown[][];
    expect(sheet).toEqual([['contact_id'], ...qualified.map((l) => [l.id])]);
  });

  it('400 invalid_export_period and invalid_export_range on every route that takes a period; nothing written', async () => {
    const counts = (q: Record<string, string>) => t.http.get(`/campaigns/${campaignId}/exports/counts`).set(bearer(ws.key)).query(q);
    expectError(await counts({ period: 'yesterday' }), 400, 'invalid_export_period');
    expectError(await counts({ period: 'custom', from: '2026-11-01T00:00:00Z' }), 400, 'invalid_export_range');
    expectError(await counts({ period: 'custom', from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' }), 400, 'invalid_export_range');
    expectError(await t.http.get(`/campaigns/${campaignId}/lead-segments`).set(bearer(ws.key)).query({ period: 'ALL_TIME' }), 400, 'invalid_export_period');
    expectError(await t.http.post(`/campaigns/${campaignId}/segmented-leads/count`).set(bearer(ws.key)).send({ period: 'custom', to: '2026-11-01T00:00:00Z' }), 400, 'invalid_export_range');
    expectError(await requestExport({ format: 'CSV', period: 'last_year' }), 400, 'invalid_export_period');
    expectError(await requestExport({ format: 'CSV', period: 'custom', from: '2026-11-01T00:00:00Z', to: '2026-11-01T00:00:00Z' }), 400, 'invalid_export_range');
    // Shape errors stay invalid_body / invalid_query.
    expectError(await requestExport({ format: 'PDF', period: 'all_time' }), 400, 'invalid_body');
    expectError(await requestExport({ format: 'CSV', period: 'all_time', columns: ['phone', 'nope'] }), 400, 'invalid_body');
    expectError(await requestExport({ format: 'CSV', period: 'all_time', segment: 'failed', filter: { statuses: ['FAILED'] } }), 400, 'invalid_body');
    expectError(await counts({ period: 'custom', from: 'yesterday', to: '2026-11-01T00:00:00Z' }), 400, 'invalid_query');
    expect(await exportRows()).toEqual([]);
    expect(await t.dataSource.query(`SELECT 1 FROM outbox`)).toEqual([]);
  });

  it('422 excel_row_limit_exceeded from the count, before any work; the same export as CSV, or narrowed, is accepted', async () => {
    limits.max = CONTACTS - 1;
    expectError(await requestExport({ format: 'XLSX', period: 'all_time' }), 422, 'excel_row_limit_exceeded');
    expect(await exportRows()).toEqual([]);
    expect(await t.dataSource.query(`SELECT 1 FROM outbox`)).toEqual([]);
    expect((await requestExport({ format: 'CSV', period: 'all_time' })).status).toBe(202);
    expect((await requestExport({ format: 'XLSX', period: 'all_time', segment: 'completed' })).status).toBe(202);
    limits.max = CONTACTS;
    expect((await requestExport({ format: 'XLSX', period: 'all_time' })).status).toBe(202);
  });

  it('410 expired past EXPORT_TTL_HOURS; housekeeping deletes the file and keeps the row', async () => {
    const res = await requestExport({ format: 'CSV', period: 'all_time', columns: ['phone'] });
    await t.get(RunExport).execute({ exportId: res.body.id });
    expect((await download(res.body.id)).status).toBe(200);
    const path = join(exportDir, ws.workspaceId, `${res.body.id}.csv`);
    expect(existsSync(path)).toBe(true);

    await t.dataSource.query(`UPDATE export_jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [res.body.id]);
    expectError(await download(res.body.id), 410, 'expired');
    expect(await t.get(ExportsHousekeeping).run()).toEqual({ filesDeleted: 1 });
    expect(existsSync(path)).toBe(false);
    const kept = await t.http.get(`/exports/${res.body.id}`).set(bearer(ws.key));
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ status: 'ready', expired: true, rowCount: CONTACTS });
    expectError(await download(res.body.id), 410, 'expired');
  });

  it('a job found running (its worker died) starts over from scratch: stale partial files go, the file is whole', async () => {
    const res = await requestExport({ format: 'CSV', period: 'all_time', columns: ['contact_id'] });
    await t.dataSource.query(`UPDATE export_jobs SET status = 'running', progress = 37 WHERE id = $1`, [res.body.id]);
    const dir = join(exportDir, ws.workspaceId);
    require('node:fs').mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${res.body.id}.csv.part-deadbeef0000`), 'contact_id\r\nhalf');
    expectError(await download(res.body.id), 400, 'invalid_request');

    expect(await t.get(RunExport).execute({ exportId: res.body.id })).toEqual({ exportId: res.body.id, status: 'ready', rowCount: CONTACTS });
    expect(readdirSync(dir)).toEqual([`${res.body.id}.csv`]);
    const rows: string[][] = parse((await download(res.body.id)).body as Buffer, { bom: true });
    expect(rows.length).toBe(CONTACTS + 1);
    // A second delivery of the same job changes nothing.
    expect(await t.get(RunExport).execute({ exportId: res.body.id })).toEqual({ exportId: res.body.id, status: 'skipped' });
  });

  it('feature flag, scopes, tenancy and unknown ids', async () => {
    const off = await t.seed();
    expectError(await t.http.get(`/campaigns/${campaignId}/lead-segments`).set(bearer(off.key)), 403, 'feature_not_available');
    expectError(await requestExport({ format: 'CSV', period: 'all_time' }, off.key), 403, 'feature_not_available');

    const viewer = await t.addKey(ws.workspaceId, { scopes: ['exports.view'] });
    expect((await t.http.get(`/campaigns/${campaignId}/exports/counts`).set(bearer(viewer.key))).status).toBe(200);
    expectError(await requestExport({ format: 'CSV', period: 'all_time' }, viewer.key), 403, 'forbidden');
    const campaignsOnly = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view', 'campaigns.edit'] });
    expectError(await t.http.get(`/campaigns/${campaignId}/exports`).set(bearer(campaignsOnly.key)), 403, 'forbidden');
    expect(await exportRows()).toEqual([]);

    const other = await t.seed({ features: ['exports'] });
    expectError(await t.http.get(`/campaigns/${campaignId}/exports/counts`).set(bearer(other.key)), 404, 'campaign_not_found');
    expectError(await requestExport({ format: 'CSV', period: 'all_time' }, other.key), 404, 'campaign_not_found');
    expectError(await requestExport({ format: 'CSV', period: 'all_time' }, ws.key, 'not-a-uuid'), 404, 'campaign_not_found');
    const mine = await requestExport({ format: 'CSV', period: 'all_time' });
    expectError(await t.http.get(`/exports/${mine.body.id}`).set(bearer(other.key)), 404, 'not_found');
    expectError(await t.http.get(`/exports/${mine.body.id}/download`).set(bearer(other.key)), 404, 'not_found');
    expectError(await t.http.get(`/exports/nope`).set(bearer(ws.key)), 404, 'not_found');
  });
});

/**
 * A finished campaign of 2,000 contacts, as the engine leaves one: contact i is COMPLETED (1 attempt,
 * outcome completed, transferred every 9th), FAILED every 10th (3 attempts, no_answer) or
 * DO_NOT_CALL every 50th (never dialled); every dialled contact has its final call with analysis
 * (completed ones) and every 5th an earlier call the report must not pick. Names exercise CSV
 * quoting and formula injection.
 */
async function seedFinishedCampaign(t: TestApp, workspaceId: string, campaignId: string): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO campaign_contacts (campaign_id, workspace_id, phone, name, fields, status, attempts, last_attempt_at, last_outcome, connected_phone, created_at)
     SELECT $1, $2, '+1415' || (2000000 + i)::text,
            CASE WHEN i % 100 = 0 THEN '=HYPERLINK("http://x.test","click")' WHEN i % 7 = 0 THEN 'Smith, "Jo"' WHEN i % 13 = 0 THEN NULL ELSE 'Zoë ' || i END,
            jsonb_build_object('plan', CASE WHEN i % 2 = 0 THEN 'gold' ELSE 'silver' END) || CASE WHEN i % 3 = 0 THEN jsonb_build_object('region', '-r' || (i % 5)) ELSE '{}'::jsonb END,
            s.status,
            CASE s.status WHEN 'COMPLETED' THEN 1 WHEN 'FAILED' THEN 3 ELSE 0 END,
            CASE WHEN s.status = 'DO_NOT_CALL' THEN NULL ELSE timestamptz '2026-11-20T10:00:00Z' + i * interval '1 minute' END,
            CASE s.status WHEN 'COMPLETED' THEN CASE WHEN i % 9 = 0 THEN 'transferred' ELSE 'completed' END WHEN 'FAILED' THEN 'no_answer' END,
            CASE WHEN s.status = 'COMPLETED' THEN '+1415' || (2000000 + i)::text END,
            timestamptz '2026-11-01T00:00:00Z'
       FROM generate_series(1, ${CONTACTS}) i,
            LATERAL (SELECT CASE WHEN i % 10 = 1 THEN 'FAILED' WHEN i % 50 = 3 THEN 'DO_NOT_CALL' ELSE 'COMPLETED' END AS status) s
      ORDER BY i`,
    [campaignId, workspaceId],
  );
  await t.dataSource.query(
    `INSERT INTO calls (id, workspace_id, campaign_id, contact_id, to_number, kind, status, outcome, attempt_number, started_at, ended_at, duration_ms, extraction, evaluation, analysis_status)
     SELECT gen_random_uuid(), workspace_id, campaign_id, id, phone, 'campaign', 'ENDED', last_outcome, attempts, last_attempt_at,
            last_attempt_at + interval '1 minute', CASE WHEN status = 'COMPLETED' THEN 30000 + (seq % 60) * 1500 ELSE 0 END,
            CASE WHEN status = 'COMPLETED' THEN jsonb_build_object('budget', (seq % 50) * 40, 'interested', seq % 3 = 0) || CASE WHEN seq % 11 = 0 THEN '{"do_not_call": true}'::jsonb ELSE '{}'::jsonb END END,
            CASE WHEN status = 'COMPLETED' THEN jsonb_build_object('qualified', CASE WHEN seq % 4 = 0 THEN 'yes' ELSE 'no' END) END,
            CASE WHEN status = 'COMPLETED' THEN 'DONE' ELSE 'SKIPPED' END
       FROM campaign_contacts WHERE campaign_id = $1 AND attempts > 0`,
    [campaignId],
  );
  await t.dataSource.query(
    `INSERT INTO calls (id, workspace_id, campaign_id, contact_id, to_number, kind, status, outcome, attempt_number, started_at, ended_at, duration_ms, extraction, evaluation, analysis_status)
     SELECT gen_random_uuid(), workspace_id, campaign_id, id, phone, 'campaign', 'ENDED', 'busy', 0, last_attempt_at - interval '1 day',
            last_attempt_at - interval '1 day', 0, '{"budget": -1}'::jsonb, '{"qualified": "stale"}'::jsonb, 'DONE'
       FROM campaign_contacts WHERE campaign_id = $1 AND attempts > 0 AND seq % 5 = 0`,
    [campaignId],
  );
  await t.dataSource.query(`UPDATE campaigns SET status = 'COMPLETED' WHERE id = $1`, [campaignId]);
}
