import { Injectable } from '@nestjs/common';
import { Outbox, OutboxJob, StatementParts } from '@outreach/core';
import { withTraceContext } from '@outreach/telemetry';
import { TransactionHost } from '../database/transaction-host';
import { OUTBOX } from './outbox-message.table';

const ID_ONLY = ['id'] as const;

/**
 * Writes jobs into the outbox table inside the caller's transaction (UnitOfWork.run). The
 * worker's relay moves them to BullMQ after commit with jobId `outbox-<id>`, so a job exists if
 * and only if the change that caused it was committed, even when Redis is down at that moment.
 */
@Injectable()
export class SqlOutbox extends Outbox {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async enqueue(...jobs: OutboxJob[]): Promise<string[]> {
    if (jobs.length === 0) return [];
    // id and created_at take their column defaults (gen_random_uuid(), now()). The payload carries
    // the active trace context, if any, so the job continues the trace of the change that caused it.
    const { sql, params } = OUTBOX.insertMany(
      jobs.map((j) => ({ queue: j.queue, name: j.name, payload: withTraceContext(j.payload), jobId: j.jobId ?? null })),
      `RETURNING ${OUTBOX.c.id}`,
      ['queue', 'name', 'payload', 'jobId'],
    );
    // The same statement wakes the relay early (it polls anyway): NOTIFY is delivered on commit
    // only, like the rows. One round trip, not two (decisions.md 42.2).
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `WITH ins AS (${sql}) SELECT ins.${OUTBOX.c.id} FROM ins CROSS JOIN (SELECT pg_notify('outbox', '')) AS wake`,
      params,
    );
    return rows.map((r) => OUTBOX.fromRow(r, ID_ONLY).id);
  }

  enqueueAfter(parts: StatementParts, guard: string, job: OutboxJob): void {
    const o = OUTBOX.c;
    // The wake-up rides along as in enqueue; a guard with no row inserts nothing (the NOTIFY, if
    // evaluated at all, only wakes the relay early).
    parts.add(`${guard}_outbox`, {
      sql: `INSERT INTO ${OUTBOX.name} (${o.queue}, ${o.name}, ${o.payload}, ${o.jobId})
            SELECT $1, $2, $3::jsonb, $4 FROM ${guard} CROSS JOIN (SELECT pg_notify('outbox', '')) AS wake`,
      params: [job.queue, job.name, OUTBOX.param('payload', withTraceContext(job.payload)), job.jobId ?? null],
    });
  }
}

export function outboxJobId(outboxId: string): string {
  return `outbox-${outboxId}`;
}
