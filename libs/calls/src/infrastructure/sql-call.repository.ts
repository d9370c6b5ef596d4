import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CallRepository } from '../application/calls.ports';
import { AnalysisStatus, Call, CallKind, CallProps, CallStatus } from '../domain/call';

type CallRow = {
  id: string;
  workspace_id: string;
  campaign_id: string | null;
  contact_id: string | null;
  agent_id: string | null;
  from_number: string | null;
  to_number: string;
  kind: string;
  status: string;
  outcome: string | null;
  provider_disposition: string | null;
  provider_call_id: string | null;
  attempt_number: number;
  started_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
  duration_ms: number | null;
  transcript: string | null;
  recording_url: string | null;
  extraction: Record<string, unknown> | null;
  evaluation: Record<string, unknown> | null;
  analysis_status: string;
  idempotency_key: string | null;
  created_at: Date;
};

/** Column order of INSERT and UPDATE below. */
export const CALL_COLUMNS = [
  'id',
  'workspace_id',
  'campaign_id',
  'contact_id',
  'agent_id',
  'from_number',
  'to_number',
  'kind',
  'status',
  'outcome',
  'provider_disposition',
  'provider_call_id',
  'attempt_number',
  'started_at',
  'answered_at',
  'ended_at',
  'duration_ms',
  'transcript',
  'recording_url',
  'extraction',
  'evaluation',
  'analysis_status',
  'idempotency_key',
  'created_at',
] as const;

function toValues(p: CallProps): unknown[] {
  return [
    p.id,
    p.workspaceId,
    p.campaignId,
    p.contactId,
    p.agentId,
    p.fromNumber,
    p.toNumber,
    p.kind,
    p.status,
    p.outcome,
    p.providerDisposition,
    p.providerCallId,
    p.attemptNumber,
    p.startedAt,
    p.answeredAt,
    p.endedAt,
    p.durationMs,
    p.transcript,
    p.recordingUrl,
    p.extraction === null ? null : JSON.stringify(p.extraction),
    p.evaluation === null ? null : JSON.stringify(p.evaluation),
    p.analysisStatus,
    p.idempotencyKey,
    p.createdAt,
  ];
}

export function callPropsFromRow(r: CallRow): CallProps {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    campaignId: r.campaign_id,
    contactId: r.contact_id,
    agentId: r.agent_id,
    fromNumber: r.from_number,
    toNumber: r.to_number,
    kind: r.kind as CallKind,
    status: r.status as CallStatus,
    outcome: r.outcome,
    providerDisposition: r.provider_disposition,
    providerCallId: r.provider_call_id,
    attemptNumber: r.attempt_number,
    startedAt: r.started_at,
    answeredAt: r.answered_at,
    endedAt: r.ended_at,
    durationMs: r.duration_ms,
    transcript: r.transcript,
    recordingUrl: r.recording_url,
    extraction: r.extraction,
    evaluation: r.evaluation,
    analysisStatus: r.analysis_status as AnalysisStatus,
    idempotencyKey: r.idempotency_key,
    createdAt: r.created_at,
  };
}

const SELECT = `SELECT ${CALL_COLUMNS.join(', ')} FROM calls`;

@Injectable()
export class SqlCallRepository extends CallRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(call: Call): Promise<void> {
    const placeholders = CALL_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
    try {
      await this.tx.manager.query(`INSERT INTO calls (${CALL_COLUMNS.join(', ')}) VALUES (${placeholders})`, toValues(call.toProps()));
    } catch (error) {
      if (isUniqueViolation(error, 'calls_workspace_idempotency_key')) {
        throw new AppError('idempotency_key_reused', { status: 409, message: 'a call with this Idempotency-Key exists' });
      }
      throw error;
    }
  }

  async update(call: Call): Promise<void> {
    const assignments = CALL_COLUMNS.slice(1)
      .map((column, i) => `${column} = $${i + 2}`)
      .join(', ');
    await this.tx.manager.query(`UPDATE calls SET ${assignments} WHERE id = $1`, toValues(call.toProps()));
  }

  async findById(workspaceId: string, id: string): Promise<Call | null> {
    if (!isUuid(id)) return null;
    const rows: CallRow[] = await this.tx.manager.query(`${SELECT} WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
    return rows[0] ? Call.restore(callPropsFromRow(rows[0])) : null;
  }

  async findAnyById(id: string, options: { lock?: boolean } = {}): Promise<Call | null> {
    if (!isUuid(id)) return null;
    const lock = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const rows: CallRow[] = await this.tx.manager.query(`${SELECT} WHERE id = $1${lock}`, [id]);
    return rows[0] ? Call.restore(callPropsFromRow(rows[0])) : null;
  }
}
