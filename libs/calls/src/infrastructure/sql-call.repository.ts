import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CallRepository } from '../application/calls.ports';
import { Call } from '../domain/call';
import { CALL_PROPS, CALLS } from './persistence/call.table';
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
    await this.tx.manager.query(sql, params);
  }

  async findById(workspaceId: string, id: string): Promise<Call | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${c.id} = $1 AND ${c.workspaceId} = $2`, [id, workspaceId]);
    return rows[0] ? Call.restore(CALLS.fromRow(rows[0], CALL_PROPS)) : null;
  }

  async findAnyById(id: string, options: { lock?: boolean } = {}): Promise<Call | null> {
    if (!isUuid(id)) return null;
    const lock = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${c.id} = $1${lock}`, [id]);
    return rows[0] ? Call.restore(CALLS.fromRow(rows[0], CALL_PROPS)) : null;
  }

  async recentOutcomes(campaignId: string, since: Date, limit: number, fromNumbers: readonly string[] | null = null): Promise<string[]> {
    // calls_campaign_created_idx (campaign_id, created_at DESC) walks the newest first.
    const rows: Array<{ outcome: string }> = await this.tx.manager.query(
      `SELECT ${c.outcome} AS outcome FROM ${CALLS.name}
        WHERE ${c.campaignId} = $1 AND ${c.createdAt} >= $2 AND ${c.outcome} IS NOT NULL
          AND ($4::text[] IS NULL OR ${c.fromNumber} = ANY($4::text[]))
        ORDER BY ${c.createdAt} DESC LIMIT $3`,
      [campaignId, since, limit, fromNumbers],
    );
    return rows.map((r) => r.outcome);
  }

  async eventCallId(provider: string, eventId: string): Promise<string | null> {
    const e = CALL_EVENTS.c;
    const rows: Array<{ call_id: string }> = await this.tx.manager.query(`SELECT ${e.callId} AS call_id FROM ${CALL_EVENTS.name} WHERE ${e.provider} = $1 AND ${e.eventId} = $2`, [provider, eventId]);
    return rows[0]?.call_id ?? null;
  }

  async hasEvent(provider: string, eventId: string): Promise<boolean> {
    const e = CALL_EVENTS.c;
    const rows: unknown[] = await this.tx.manager.query(`SELECT 1 FROM ${CALL_EVENTS.name} WHERE ${e.provider} = $1 AND ${e.eventId} = $2`, [provider, eventId]);
    return rows.length > 0;
  }

  async addEvent(event: { provider: string; eventId: string; callId: string; type: string }): Promise<boolean> {
    const { sql, params } = CALL_EVENTS.insert(event, 'ON CONFLICT DO NOTHING RETURNING 1 AS added', ['provider', 'eventId', 'callId', 'type']);
    const rows: unknown[] = await this.tx.manager.query(sql, params);
    return rows.length > 0;
  }
}
