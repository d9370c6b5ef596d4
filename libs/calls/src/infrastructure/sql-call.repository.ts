import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, prepared, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CallRepository } from '../application/calls.ports';
import { Call } from '../domain/call';
import { CALL_PROPS, CALLS, StoredCall } from './persistence/call.table';
import { CALL_EVENTS } from './persistence/call-event.table';

const c = CALLS.c;
const SELECT = `SELECT ${CALLS.select(undefined, CALL_PROPS)} FROM ${CALLS.name}`;

@Injectable()
export class SqlCallRepository extends CallRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(call: Call): Promise<void> {
    const { sql, params } = CALLS.insert(call.toProps(), '', CALL_PROPS);
    try {
      await this.tx.manager.query(sql, params);
    } catch (error) {
      if (isUniqueViolation(error, 'calls_workspace_idempotency_key')) {
        throw new AppError('idempotency_key_reused', { status: 409, message: 'a call with this Idempotency-Key exists' });
      }
      throw error;
    }
  }

  async insertMany(calls: readonly Call[]): Promise<void> {
    if (calls.length === 0) return;
    if (calls.some((call) => call.toProps().idempotencyKey !== null)) throw new Error('insertMany: calls with an idempotency key are inserted one by one');
    const { sql, params } = CALLS.insertMany(calls.map((call) => call.toProps()), '', CALL_PROPS);
    await this.tx.manager.query(sql, params);
  }

  async discardQueued(id: string): Promise<boolean> {
    const rows: unknown[] = await this.tx.manager.query(
      `DELETE FROM ${CALLS.name} c WHERE c.id = $1 AND c.status = 'QUEUED' AND NOT EXISTS (SELECT 1 FROM call_events e WHERE e.call_id = c.id) RETURNING c.id`,
      [id],
    );
    return rows.length > 0;
  }

  async update(call: Call): Promise<void> {
    const { sql, params } = CALLS.update(
      call.toProps(),
      ['id'],
      CALL_PROPS.filter((k) => k !== 'id'),
    );
    await this.tx.manager.query(prepared(sql), params);
  }

  async updateMany(calls: readonly Call[]): Promise<void> {
    if (calls.length === 0) return;
    if (calls.length === 1) return this.update(calls[0]);
    const props: StoredCall[] = calls.map((call) => ({ ...call.toProps(), metricOverrides: {} })); // metricOverrides is not written here
    const column = <K extends keyof StoredCall>(key: K) => props.map((p) => CALLS.param(key, p[key]));
    await this.tx.manager.query(
      prepared(`UPDATE ${CALLS.name} k
          SET ${c.status} = t.status, ${c.outcome} = t.outcome, ${c.providerDisposition} = t.provider_disposition,
              ${c.providerCallId} = t.provider_call_id, ${c.answeredAt} = t.answered_at, ${c.endedAt} = t.ended_at,
              ${c.durationMs} = t.duration_ms, ${c.transcript} = t.transcript, ${c.recordingUrl} = t.recording_url,
              ${c.providerAnalysis} = t.provider_analysis, ${c.analysisStatus} = t.analysis_status
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::int[],
                     $9::text[], $10::text[], $11::jsonb[], $12::text[])
              AS t(id, status, outcome, provider_disposition, provider_call_id, answered_at, ended_at, duration_ms,
                   transcript, recording_url, provider_analysis, analysis_status)
        WHERE k.${c.id} = t.id`),
      [
        column('id'),
        column('status'),
        column('outcome'),
        column('providerDisposition'),
        column('providerCallId'),
        column('answeredAt'),
        column('endedAt'),
        column('durationMs'),
        column('transcript'),
        column('recordingUrl'),
        column('providerAnalysis'),
        column('analysisStatus'),
      ],
    );
  }

  async findById(workspaceId: string, id: string): Promise<Call | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${c.id} = $1 AND ${c.workspaceId} = $2`, [id, workspaceId]);
    return rows[0] ? Call.restore(CALLS.fromRow(rows[0], CALL_PROPS)) : null;
  }

  async findAnyById(id: string, options: { lock?: boolean } = {}): Promise<Call | null> {
    if (!isUuid(id)) return null;
    const lock = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(prepared(`${SELECT} WHERE ${c.id} = $1${lock}`), [id]);
    return rows[0] ? Call.restore(CALLS.fromRow(rows[0], CALL_PROPS)) : null;
  }

  async findAnyByIds(ids: readonly string[], options: { lock?: boolean } = {}): Promise<Call[]> {
    const valid = [...new Set(ids.filter(isUuid))];
    if (valid.length === 0) return [];
    const lock = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(prepared(`${SELECT} WHERE ${c.id} = ANY($1::uuid[]) ORDER BY ${c.id}${lock}`), [valid]);
    return rows.map((row) => Call.restore(CALLS.fromRow(row, CALL_PROPS)));
  }

  async recentOutcomes(campaignId: string, since: Date, limit: number, fromNumbers: readonly string[] | null = null): Promise<string[]> {
    // calls_campaign_created_idx (campaign_id, created_at DESC) walked newest first, whatever the
    // statistics say (migration 1763700012100, decisions.md 16.35).
    const rows: Array<{ outcome: string }> = await this.tx.manager.query(`SELECT calls_recent_outcomes($1, $2, $3::int, $4::text[]) AS outcome`, [
      campaignId,
      since,
      limit,
      fromNumbers,
    ]);
    return rows.map((r) => r.outcome);
  }

  async eventCallId(provider: string, eventId: string): Promise<string | null> {
    const e = CALL_EVENTS.c;
    const rows: Array<{ call_id: string }> = await this.tx.manager.query(prepared(`SELECT ${e.callId} AS call_id FROM ${CALL_EVENTS.name} WHERE ${e.provider} = $1 AND ${e.eventId} = $2`), [
      provider,
      eventId,
    ]);
    return rows[0]?.call_id ?? null;
  }

  async hasEvent(provider: string, eventId: string): Promise<boolean> {
    const e = CALL_EVENTS.c;
    const rows: unknown[] = await this.tx.manager.query(prepared(`SELECT 1 FROM ${CALL_EVENTS.name} WHERE ${e.provider} = $1 AND ${e.eventId} = $2`), [provider, eventId]);
    return rows.length > 0;
  }

  async appliedEvents(provider: string, eventIds: readonly string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const e = CALL_EVENTS.c;
    const rows: Array<{ event_id: string }> = await this.tx.manager.query(
      prepared(`SELECT ${e.eventId} AS event_id FROM ${CALL_EVENTS.name} WHERE ${e.provider} = $1 AND ${e.eventId} = ANY($2::text[])`),
      [provider, eventIds],
    );
    return new Set(rows.map((r) => r.event_id));
  }

  async addEvents(events: ReadonlyArray<{ provider: string; eventId: string; callId: string; type: string }>): Promise<void> {
    if (events.length === 0) return;
    const { sql, params } = CALL_EVENTS.insertMany(events, 'ON CONFLICT DO NOTHING', ['provider', 'eventId', 'callId', 'type']);
    await this.tx.manager.query(sql, params);
  }

  async addEvent(event: { provider: string; eventId: string; callId: string; type: string }): Promise<boolean> {
    const { sql, params } = CALL_EVENTS.insert(event, 'ON CONFLICT DO NOTHING RETURNING 1 AS added', ['provider', 'eventId', 'callId', 'type']);
    const rows: unknown[] = await this.tx.manager.query(sql, params);
    return rows.length > 0;
  }
}
