import { analyseCallJob, CallLog } from '@outreach/calls';
import { Outbox, TransactionHost } from '@outreach/platform';
import { sandboxScript, VoiceCallResult } from '@outreach/telephony';
import { TestApp } from '../support/test-app';

export interface RecordCallInput {
  workspaceId: string;
  campaignId?: string | null;
  contactId?: string | null;
  agentId?: string | null;
  /** The sandbox's last-digit rule picks the outcome (0 no answer … 5–9 completed). */
  to: string;
  from?: string;
  attemptNumber?: number;
  /** Leave the call live (QUEUED: the provider never reported on it). */
  unfinished?: boolean;
  /** Also write the analysis job to the outbox (as the engine does when a call ends). */
  enqueueAnalysis?: boolean;
}

/** What the sandbox provider would report for `to`, ending at `now` + ring + talk. */
export function sandboxResult(to: string, now: Date): VoiceCallResult {
  const script = sandboxScript(to);
  const answered = ['voicemail', 'transferred', 'completed'].includes(script.outcome);
  const answeredAt = answered ? new Date(now.getTime() + script.ringMs) : null;
  return {
    outcome: script.outcome,
    providerDisposition: script.providerDisposition,
    providerCallId: `sbx_test_${to}`,
    answeredAt,
    endedAt: new Date(now.getTime() + script.ringMs + script.durationMs),
    durationMs: script.durationMs,
    transcript: script.transcript,
    recordingUrl: null,
  };
}

/** A call recorded through the engine's CallLog (start, then finish with the sandbox's answer). */
export async function recordCall(t: TestApp, input: RecordCallInput): Promise<string> {
  const log = t.get(CallLog);
  const { callId } = await log.start({
    workspaceId: input.workspaceId,
    campaignId: input.campaignId ?? null,
    contactId: input.contactId ?? null,
    agentId: input.agentId ?? null,
    fromNumber: input.from ?? '+14155550100',
    toNumber: input.to,
    attemptNumber: input.attemptNumber ?? 1,
    kind: input.campaignId ? 'campaign' : 'test',
  });
  if (input.unfinished) return callId;
  await t.get(TransactionHost).run(async () => {
    const call = await log.finish(callId, sandboxResult(input.to, new Date()));
    if (input.enqueueAnalysis && call.analysisStatus === 'PENDING') await t.get(Outbox).enqueue(analyseCallJob(callId));
  });
  return callId;
}

export async function countCalls(t: TestApp, workspaceId?: string): Promise<number> {
  const [{ n }] = workspaceId
    ? await t.dataSource.query(`SELECT count(*)::int AS n FROM calls WHERE workspace_id = $1`, [workspaceId])
    : await t.dataSource.query(`SELECT count(*)::int AS n FROM calls`);
  return n;
}

export async function ledger(t: TestApp, workspaceId: string): Promise<Array<Record<string, unknown>>> {
  return t.dataSource.query(`SELECT * FROM ledger_entries WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
}
