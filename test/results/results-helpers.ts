import { CallLog } from '@outreach/calls';
import { RecordLeadResult } from '@outreach/results';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, TestApp } from '../support/test-app';
import { attachNumber, createCampaign, credit } from '../campaigns/campaign-helpers';

export { expectError, randomE164 } from '../campaigns/campaign-helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
export type Loose = Record<string, any>;

/**
 * A RUNNING API campaign (agent, number, credit, started) of the workspace behind `key`; recipient
 * hours off and a whole-day window (00:00–00:00), so that tests dialling on the real clock pass at
 * any hour of the day (the default 09:00–18:00 made them fail after 18:00 UTC).
 */
export async function runningApiCampaign(t: TestApp, key: string, workspaceId: string, extra: Record<string, unknown> = {}): Promise<Loose> {
  const agent = await createActiveAgent(t, key);
  // Recipient-local hours off: leads are dialled at once whatever the hour (test/engine/recipient-hours.e2e-spec.ts is about them).
  const campaign = await createCampaign(t, key, {
    source: 'API',
    agentId: agent.id,
    recipientHours: 'off',
    dailyWindowStart: '00:00',
    dailyWindowEnd: '00:00',
    ...extra,
  });
  await attachNumber(t, key, workspaceId, campaign.id);
  await credit(t, workspaceId);
  const started = await t.http.post(`/campaigns/${campaign.id}/start`).set(bearer(key)).send({});
  if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
  return started.body;
}

export async function pushLead(t: TestApp, key: string, campaignId: string, body: Record<string, unknown>) {
  return t.http.post(`/v1/campaigns/${campaignId}/leads`).set(bearer(key)).send(body);
}

export async function countContacts(t: TestApp, campaignId: string): Promise<number> {
  const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [campaignId]);
  return n;
}

export interface FinishedLead {
  leadId: string;
  callId: string;
  resultId: string;
}

/**
 * What the engine does when an API lead's last attempt ends: a call on the CallLog, the contact
 * moved to its final status, then the results job's use case. Returns the result id.
 */
export async function finishLead(
  t: TestApp,
  workspaceId: string,
  campaignId: string,
  leadId: string,
  options: { status?: 'COMPLETED' | 'FAILED' | 'DO_NOT_CALL'; outcome?: 'completed' | 'no_answer' | 'busy' | 'voicemail' | 'transferred' } = {},
): Promise<FinishedLead> {
  const status = options.status ?? 'COMPLETED';
  const outcome = options.outcome ?? (status === 'COMPLETED' ? 'completed' : 'no_answer');
  const calls = t.get(CallLog);
  const [{ phone }] = await t.dataSource.query(`SELECT phone FROM campaign_contacts WHERE id = $1`, [leadId]);
  const { callId } = await calls.start({
    workspaceId,
    campaignId,
    contactId: leadId,
    agentId: null,
    fromNumber: '+14155550100',
    toNumber: phone,
    attemptNumber: 1,
    kind: 'campaign',
  });
  const answered = outcome === 'completed' || outcome === 'transferred' || outcome === 'voicemail';
  const endedAt = new Date('2026-11-21T10:05:00Z');
  await calls.finish(callId, {
    outcome,
    providerDisposition: outcome,
    providerCallId: `sandbox-${callId}`,
    answeredAt: answered ? new Date('2026-11-21T10:04:00Z') : null,
    endedAt,
    durationMs: answered ? 60_000 : 0,
    transcript: answered ? 'Agent: Hello, is this a good time?\nCaller: Yes, go ahead.' : null,
    recordingUrl: null,
  });
  await t.dataSource.query(
    `UPDATE campaign_contacts SET status = $2, attempts = 1, last_outcome = $3, last_attempt_at = $4, connected_phone = $5, updated_at = now() WHERE id = $1`,
    [leadId, status, outcome, endedAt, outcome === 'completed' || outcome === 'transferred' ? phone : null],
  );
  const resultId = await t.get(RecordLeadResult).execute(leadId, callId);
  if (!resultId) throw new Error(`finishLead: no result for ${leadId}`);
  return { leadId, callId, resultId };
}

let keyCounter = 0;
export function uniqueKey(prefix = 'key'): string {
  keyCounter += 1;
  return `${prefix}-${keyCounter}-${Math.random().toString(36).slice(2, 8)}`;
}
