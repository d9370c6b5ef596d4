import { Injectable } from '@nestjs/common';
import { prepared, TransactionHost } from '@outreach/platform';
import { ContactTimelineStore } from '../application/contact-timeline';
import { SkipReason, TIMELINE_EVENTS_PER_CONTACT, TimelineEvent } from '../domain/contact-timeline';
import { CONTACT_TIMELINE_EVENTS as E, CONTACT_WAITS as W } from './persistence/contact-timeline.table';

const e = E.c;
const w = W.c;

/** A contact's timeline in contact_timeline_events and contact_waits (the caller holds the transaction). */
@Injectable()
export class SqlContactTimelineStore extends ContactTimelineStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  /**
   * One statement: the insert, the trim of each contact's older events and (for a claim) the end of
   * their waits. The trim runs on the statement's snapshot, which does not hold the new rows, so
   * each contact keeps TIMELINE_EVENTS_PER_CONTACT − (its new events) of the older ones: at most one
   * walk of that many entries of its (contact_id, seq) index.
   */
  async append(events: readonly TimelineEvent[], options: { endWaitsOf?: readonly string[] } = {}): Promise<void> {
    if (events.length === 0) return;
    await this.tx.manager.query(
      prepared(`WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::jsonb[]) WITH ORDINALITY AS t(contact_id, type, occurred_at, detail, ord)
       ), inserted AS (
         INSERT INTO ${E.name} (${e.contactId}, ${e.type}, ${e.occurredAt}, ${e.detail})
         SELECT contact_id, type, occurred_at, detail FROM input ORDER BY ord
       ), ended AS (
         DELETE FROM ${W.name} WHERE ${w.contactId} = ANY($6::uuid[])
       )
       DELETE FROM ${E.name} WHERE ${e.seq} IN (
         SELECT old.${e.seq} FROM (SELECT contact_id, count(*) AS n FROM input GROUP BY contact_id) c
         CROSS JOIN LATERAL (SELECT ${e.seq} FROM ${E.name} WHERE ${e.contactId} = c.contact_id ORDER BY ${e.seq} DESC OFFSET GREATEST(0, $5 - c.n)) old)`),
      [
        events.map((x) => x.contactId),
        events.map((x) => x.type),
        events.map((x) => x.at),
        events.map((x) => JSON.stringify(x.detail)),
        TIMELINE_EVENTS_PER_CONTACT,
        options.endWaitsOf ?? [],
      ],
    );
  }

  async changeWait(contactIds: readonly string[], reason: SkipReason, until: Date | null, at: Date): Promise<string[]> {
    if (contactIds.length === 0) return [];
    const rows: Array<{ contact_id: string }> = await this.tx.manager.query(
      `INSERT INTO ${W.name} (${w.contactId}, ${w.reason}, ${w.until}, ${w.since})
       SELECT DISTINCT id, $2::text, $3::timestamptz, $4::timestamptz FROM unnest($1::uuid[]) AS t(id) ORDER BY 1
       ON CONFLICT (${w.contactId}) DO UPDATE SET ${w.reason} = EXCLUDED.${w.reason}, ${w.until} = EXCLUDED.${w.until}, ${w.since} = EXCLUDED.${w.since}
        WHERE ${W.name}.${w.reason} IS DISTINCT FROM EXCLUDED.${w.reason} OR ${W.name}.${w.until} IS DISTINCT FROM EXCLUDED.${w.until}
       RETURNING ${w.contactId} AS contact_id`,
      [contactIds, reason, until, at],
    );
    return rows.map((r) => r.contact_id);
  }

  async page(contactId: string, afterSeq: string | null, limit: number): Promise<Array<{ seq: string; event: TimelineEvent }>> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${E.select()} FROM ${E.name}
        WHERE ${e.contactId} = $1 AND ($2::bigint IS NULL OR ${e.seq} > $2::bigint)
        ORDER BY ${e.seq} LIMIT $3`,
      [contactId, afterSeq, limit],
    );
    return rows.map((row) => {
      const r = E.fromRow(row);
      return { seq: r.seq, event: { contactId: r.contactId, type: r.type, at: r.occurredAt, detail: r.detail } };
    });
  }

  async purgeOlderThan(before: Date, limit: number): Promise<number> {
    const [, deleted]: [unknown, number] = await this.tx.manager.query(
      `DELETE FROM ${E.name} WHERE ${e.seq} IN (SELECT ${e.seq} FROM ${E.name} WHERE ${e.occurredAt} < $1 LIMIT $2)`,
      [before, limit],
    );
    return deleted;
  }
}
