import { DataSource } from 'typeorm';
import { WORKSPACE_FEATURES } from '@outreach/workspaces';
import { createCampaign } from '../../campaigns/campaign-helpers';
import { pushLead, runningApiCampaign, uniqueKey } from '../../results/results-helpers';
import { createActiveAgent } from '../../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../../support/test-app';
import type { FuzzRequest } from './openapi-arbitraries';

/**
 * A workspace with every feature and real rows (an active agent, a draft campaign, a running API
 * campaign with one lead, a queued export of the draft), so generated path ids sometimes name existing rows and reach deeper
 * rules. Shared by the fuzzer and the Prism contract test.
 */
export async function seedFuzzTargets(t: TestApp): Promise<{ ws: Seeded; knownIds: string[] }> {
  const ws = await t.seed({ features: [...WORKSPACE_FEATURES] });
  const agent = await createActiveAgent(t, ws.key);
  const draft = await createCampaign(t, ws.key);
  const running = await runningApiCampaign(t, ws.key, ws.workspaceId);
  const lead = await pushLead(t, ws.key, running.id, { phone: '+14155550123', idempotencyKey: uniqueKey() });
  const exported = await t.http.post(`/campaigns/${draft.id}/exports`).set(bearer(ws.key)).send({ format: 'CSV', period: 'all_time' });
  const knownIds = [agent.id, draft.id, running.id];
  if (lead.body?.id) knownIds.push(String(lead.body.id));
  if (exported.body?.id) knownIds.push(String(exported.body.id));
  return { ws, knownIds };
}

export interface FuzzResponse {
  status: number;
  body: Record<string, unknown>;
  text: string;
  contentType: string;
}

/** Sends one fuzzed request with the given key. */
export async function send(t: TestApp, key: string, req: FuzzRequest): Promise<FuzzResponse> {
  const method = req.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  let r = t.http[method](req.url).set(bearer(key));
  for (const [k, v] of Object.entries(req.headers)) r = r.set(k, v);
  const b = req.body;
  if (b?.kind === 'raw') {
    if (b.contentType !== undefined && b.contentType !== '') r = r.set('Content-Type', b.contentType);
    r = r.send(Buffer.from(b.data, 'utf8'));
  } else if (b?.kind === 'multipart') {
    if (b.extraField) r = r.field(b.extraField[0], b.extraField[1]);
    r = r.attach(b.field, Buffer.from(b.content, 'utf8'), b.filename);
  }
  const res = await r.buffer(true).ok(() => true);
  return {
    status: res.status,
    body: (res.body && typeof res.body === 'object' && !Buffer.isBuffer(res.body) ? res.body : {}) as Record<string, unknown>,
    text: res.text ?? '',
    contentType: String(res.headers['content-type'] ?? ''),
  };
}

/**
 * Tables whose content a rejected request must leave untouched. Left out on purpose:
 * api_keys (last-used stamps), api_logs (every lead push is logged, rejected ones too),
 * idempotency_keys (a replayable rejection may be recorded), migrations.
 */
export const WATCHED_TABLES = [
  'agents',
  'api_lead_keys',
  'calls',
  'campaign_contacts',
  'campaign_daily_dials',
  'campaign_phone_numbers',
  'campaign_types',
  'campaigns',
  'custom_functions',
  'dnc_entries',
  'export_jobs',
  'lead_results',
  'ledger_entries',
  'members',
  'outbox',
  'phone_numbers',
  'recharges',
  'result_webhook_attempts',
  'result_webhook_deliveries',
  'result_webhook_endpoints',
  'telephony_carriers',
  'upload_rows',
  'uploads',
  'wallets',
  'workspace_tariffs',
  'workspaces',
];

/** A fingerprint (row count + md5 of every row) of each watched table. */
export async function snapshot(ds: DataSource): Promise<Record<string, string>> {
  const sql = WATCHED_TABLES.map(
    (tbl) => `SELECT '${tbl}' AS t, count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') AS f FROM "${tbl}" x`,
  ).join(' UNION ALL ');
  const rows: Array<{ t: string; f: string }> = await ds.query(sql);
  return Object.fromEntries(rows.map((r) => [r.t, r.f]));
}

export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(before).filter((k) => before[k] !== after[k]);
}

/** Short printable form of a request for failure reports. */
export function describeRequest(req: FuzzRequest): string {
  const body = req.body?.kind === 'raw' ? `${req.body.contentType ?? '(no type)'} ${req.body.data}` : req.body ? `multipart ${req.body.field}=${req.body.filename} (${req.body.content.length} chars)` : '(no body)';
  const s = `${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`;
  return s.length > 600 ? `${s.slice(0, 600)}… (${s.length} chars)` : s;
}
