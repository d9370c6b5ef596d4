import { AppConfig } from '@outreach/core';
import { parse } from 'csv-parse/sync';
import { codeOf, FixedClock, jobsRollback, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { aLead, CsvLinesSheetWriters, FixedRowLimits, InMemoryExportCampaigns, InMemoryExportJobRepository, InMemoryFileStore, InMemoryLeadSource } from '../testing';
import { ExportCounts } from './export-counts';
import { ExportQueries } from './export-queries';
import { ExportsHousekeeping } from './exports-housekeeping';
import { ExportsJob, ExportsQueue } from './exports-jobs';
import { LeadCounter } from './lead-counter';
import { RequestExport } from './request-export.use-case';
import { RunExport } from './run-export.use-case';

const WS = 'ws-1';
const CAMPAIGN = 'camp-1';

function setup() {
  const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
  const jobs = new InMemoryExportJobRepository();
  const store = new InMemoryFileStore();
  const leads = new InMemoryLeadSource();
  const campaigns = new InMemoryExportCampaigns();
  const limits = new FixedRowLimits();
  const outbox = new RecordingOutbox();
  const jobsState = { snapshot: () => new Map(jobs.rows), restore: (s: unknown) => ((jobs as { rows: Map<string, unknown> }).rows.clear(), (s as Map<string, never>).forEach((v, k) => jobs.rows.set(k, v))) };
  const uow = new RollbackUnitOfWork([jobsRollback(outbox), jobsState]);
  const config = { exportTtlHours: 72 } as AppConfig;
  const counter = new LeadCounter(leads);
  campaigns.campaigns.set(CAMPAIGN, { workspaceId: WS, name: 'Winter renewals!', extractionKeys: ['budget'], metricKeys: ['qualified'] });
  leads.leads.set(CAMPAIGN, [
    aLead({ phone: '+14155550101', name: '=cmd()', fields: { plan: 'gold' }, finalCall: { callId: 'k1', outcome: 'completed', startedAt: clock.now(), durationMs: 30_000, extraction: { budget: 100, interested: true }, evaluation: { qualified: 'yes' } } }),
    aLead({ phone: '+14155550102', status: 'FAILED', lastOutcome: 'no_answer' }),
    aLead({ phone: '+14155550103', status: 'PENDING', lastOutcome: null, attempts: 0, lastAttemptAt: null }),
  ]);
  return {
    clock,
    jobs,
    store,
    leads,
    outbox,
    limits,
    counts: new ExportCounts(campaigns, counter, clock),
    request: new RequestExport(campaigns, leads, counter, jobs, limits, outbox, uow, clock),
    run: new RunExport(jobs, campaigns, leads, store, new CsvLinesSheetWriters(), config, clock),
    queries: new ExportQueries(jobs, campaigns, store, clock),
    housekeeping: new ExportsHousekeeping(jobs, store, clock),
  };
}

const text = async (stream: NodeJS.ReadableStream): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
};

describe('exports use cases (ports faked)', () => {
  it('counts: full report, segments in one pass, custom filters', async () => {
    const s = setup();
    expect((await s.counts.fullReport(WS, CAMPAIGN, {})).count).toBe(3);
    const segments = await s.counts.segments(WS, CAMPAIGN, {});
    expect(Object.fromEntries(segments.segments.map((x) => [x.key, x.count]))).toEqual({
      all: 3, pending: 1, completed: 1, failed: 1, not_reached: 1, interested: 1, not_interested: 0, opted_out: 0, do_not_call: 0,
    });
    expect((await s.counts.custom(WS, CAMPAIGN, { evaluation: [{ key: 'qualified', values: ['yes'] }] }, {})).count).toBe(1);
    expect(await codeOf(s.counts.fullReport('other-ws', CAMPAIGN, {}))).toEqual({ code: 'campaign_not_found' });
    expect(await codeOf(s.counts.fullReport(WS, CAMPAIGN, { period: 'forever' }))).toEqual({ code: 'invalid_export_period' });
  });

  it('request: a queued job and its worker job in one unit; refusals write nothing', async () => {
    const s = setup();
    const view = await s.request.execute(WS, CAMPAIGN, { format: 'CSV', period: 'all_time' });
    expect(view).toMatchObject({ status: 'queued', progress: 0, rowCount: null, fileName: 'Winter-renewals-all_time-2026-11-25.csv', expiresAt: null, expired: false });
    expect(s.outbox.named(ExportsQueue.Exports, ExportsJob.Run)).toEqual([{ queue: 'exports', name: 'run', payload: { exportId: view.id }, jobId: `export-${view.id}` }]);

    s.limits.max = 2;
    expect(await codeOf(s.request.execute(WS, CAMPAIGN, { format: 'XLSX', period: 'all_time' }))).toEqual({ code: 'excel_row_limit_exceeded' });
    expect(await codeOf(s.request.execute(WS, CAMPAIGN, { format: 'CSV', period: 'custom' }))).toEqual({ code: 'invalid_export_range' });
    expect(await codeOf(s.request.execute(WS, CAMPAIGN, { format: 'CSV', period: 'all_time', columns: ['phone', 'bogus'] }))).toEqual({ code: 'invalid_body' });
    expect(await codeOf(s.request.execute(WS, CAMPAIGN, { format: 'CSV', period: 'all_time', segment: 'failed', filter: {} }))).toEqual({ code: 'invalid_body' });
    expect(s.jobs.rows.size).toBe(1);
    expect(s.outbox.jobs).toHaveLength(1);
    // Within the limit: the count is of the segment, not of the campaign.
    await expect(s.request.execute(WS, CAMPAIGN, { format: 'XLSX', period: 'all_time', segment: 'completed' })).resolves.toMatchObject({ status: 'queued' });
  });

  it('run: writes the file, ready with rowCount and expiresAt = +72 h; a second run changes nothing', async () => {
    const s = setup();
    const { id } = await s.request.execute(WS, CAMPAIGN, { format: 'CSV', period: 'all_time' });
    expect(await s.run.execute({ exportId: id })).toEqual({ exportId: id, status: 'ready', rowCount: 3 });
    const job = await s.queries.get(WS, id);
    expect(job).toMatchObject({ status: 'ready', progress: 100, rowCount: 3, expiresAt: '2026-11-28T10:00:00.000Z', expired: false });
    const file = await s.queries.download(WS, id);
    expect(file.mediaType).toBe('text/csv; charset=utf-8');
    const rows: string[][] = parse(await text(file.stream), { bom: true });
    expect(rows[0]).toEqual(['contact_id', 'phone', 'name', 'status', 'attempts', 'outcome', 'last_attempt_at', 'connected_phone', 'call_id', 'call_started_at', 'call_duration_seconds', 'field.plan', 'extraction.budget', 'metric.qualified']);
    expect(rows.slice(1).map((r) => [r[1], r[2], r[3], r[10], r[11], r[12], r[13]])).toEqual([
      ["'+14155550101", "'=cmd()", 'COMPLETED', '30', 'gold', '100', 'yes'],
      ["'+14155550102", 'Ann', 'FAILED', '', '', '', ''],
      ["'+14155550103", 'Ann', 'PENDING', '', '', '', ''],
    ]);
    expect(await s.run.execute({ exportId: id })).toEqual({ exportId: id, status: 'skipped' });
  });

  it('run: a failure mid-file drops the partial file and fails the job; a job found running starts over', async () => {
    const s = setup();
    const { id } = await s.request.execute(WS, CAMPAIGN, { format: 'CSV', period: 'all_time' });
    s.leads.failOnPage = 2;
    expect(await s.run.execute({ exportId: id })).toEqual({ exportId: id, status: 'failed' });
    expect(s.store.files.size).toBe(0);
    expect(s.store.aborted).toHaveLength(1);
    expect(await s.queries.get(WS, id)).toMatchObject({ status: 'failed', error: 'internal_error' });
    expect(await codeOf(s.queries.download(WS, id))).toEqual({ code: 'invalid_request' });

    // A worker that died mid-export left the job running: the next run writes it whole.
    const again = await s.request.execute(WS, CAMPAIGN, { format: 'CSV', period: 'all_time' });
    s.jobs.rows.get(again.id)!.status = 'running';
    s.jobs.rows.get(again.id)!.progress = 40;
    s.leads.failOnPage = null;
    expect(await s.run.execute({ exportId: again.id })).toEqual({ exportId: again.id, status: 'ready', rowCount: 3 });
  });

  it('progress: persisted at most once a second while writing', async () => {
    const s = setup();
    const many = Array.from({ length: 50 }, (_, i) => aLead({ phone: `+1415555${String(i).padStart(4, '0')}` }));
    s.leads.leads.set(CAMPAIGN, many);
    const { id } = await s.request.execute(WS, CAMPAIGN, { format: 'CSV', period: 'all_time' });
    await s.run.execute({ exportId: id });
    // 25 pages written in far less than a second: no progress write between start and ready.
    expect(s.jobs.progressWrites).toEqual([]);
    expect((await s.queries.get(WS, id)).rowCount).toBe(50);
  });

  it('expiry: 410 expired past expiresAt; housekeeping deletes the file and keeps the row', async () => {
    const s = setup();
    const { id } = await s.request.execute(WS, CAMPAIGN, { format: 'XLSX', period: 'all_time' });
    await s.run.execute({ exportId: id });
    expect((await s.queries.download(WS, id)).mediaType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(await s.housekeeping.run()).toEqual({ filesDeleted: 0 });
    s.clock.advance(72 * 3600 * 1000);
    expect(await codeOf(s.queries.download(WS, id))).toEqual({ code: 'expired' });
    expect(await s.housekeeping.run()).toEqual({ filesDeleted: 1 });
    expect(s.store.files.size).toBe(0);
    expect(await s.queries.get(WS, id)).toMatchObject({ status: 'ready', expired: true, rowCount: 3 });
    expect(await s.housekeeping.run()).toEqual({ filesDeleted: 0 });
    expect(await codeOf(s.queries.get('other-ws', id))).toEqual({ code: 'not_found' });
  });
});
