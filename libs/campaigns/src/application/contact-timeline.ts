import { Injectable } from '@nestjs/common';
import { AppConfig, AppError, Clock, UnitOfWork } from '@outreach/core';
import { SkipReason, TimelineEvent, TimelineEventType } from '../domain/contact-timeline';

export interface TimelineEventView {
  type: TimelineEventType;
  at: string;
  detail: Record<string, unknown>;
}

export interface TimelinePage {
  items: TimelineEventView[];
  nextCursor: string | null;
}

/** What a writer says; `at` defaults to the clock's now. */
export interface TimelineEntry {
  contactId: string;
  type: TimelineEventType;
  detail?: Record<string, unknown>;
  at?: Date;
}

/** A timeline event before its contact exists (ContactTimeline.pending). */
export type PendingTimelineEvent = Omit<TimelineEvent, 'contactId'>;

export abstract class ContactTimelineStore {
  /**
   * Appends the events and drops each contact's events beyond the newest TIMELINE_EVENTS_PER_CONTACT;
   * `endWaitsOf`: contacts that wait no more (claimed), whose next skip is recorded whatever its reason.
   */
  abstract append(events: readonly TimelineEvent[], options?: { endWaitsOf?: readonly string[] }): Promise<void>;
  /**
   * Sets the contacts' waiting reason to (reason, until); returns the contacts whose reason or end
   * changed (those get a `skipped` event), leaving the others alone.
   */
  abstract changeWait(contactIds: readonly string[], reason: SkipReason, until: Date | null, at: Date): Promise<string[]>;
  /** Events of the contact after position `afterSeq`, oldest first, at most `limit`. */
  abstract page(contactId: string, afterSeq: string | null, limit: number): Promise<Array<{ seq: string; event: TimelineEvent }>>;
  /** Deletes up to `limit` events older than `before`; returns how many. */
  abstract purgeOlderThan(before: Date, limit: number): Promise<number>;
}

const DAY_MS = 24 * 3600_000;
const PURGE_BATCH = 1000;

/** Opaque cursor: base64url of `timeline:<seq>`; anything else → 400 invalid_cursor. */
export function encodeTimelineCursor(seq: string): string {
  return Buffer.from(`timeline:${seq}`, 'utf8').toString('base64url');
}

export function decodeTimelineCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const invalid = () => new AppError('invalid_cursor', { message: 'Cursor invalid; use nextCursor from the previous page of this timeline' });
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid();
  const match = /^timeline:(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalid();
  return match[1];
}

/**
 * The ContactTimeline port (decisions.md 29.3): what the engine, the results module and the
 * campaigns module itself write about a contact, each in the transaction of the change it
 * records (every method joins the caller's UnitOfWork transaction, or opens one), and what the
 * timeline routes read. The table is the campaigns module's; other modules write only through here.
 */
@Injectable()
export class ContactTimeline {
  constructor(
    private readonly store: ContactTimelineStore,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  record(...entries: TimelineEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    const now = this.clock.now();
    return this.uow.run(() =>
      this.store.append(entries.map((e) => ({ contactId: e.contactId, type: e.type, detail: e.detail ?? {}, at: e.at ?? now }))),
    );
  }

  /**
   * An event for a store to write in the statement that makes its contact (the lead push's
   * `created`, decisions.md 46.6): type, detail and the clock's now; the store adds the contact id.
   */
  pending(type: TimelineEventType, detail: Record<string, unknown> = {}): PendingTimelineEvent {
    return { type, detail, at: this.clock.now() };
  }

  /** The dispatcher took these contacts for an attempt: they no longer wait. */
  claimed(contacts: ReadonlyArray<{ id: string; attempt: number }>): Promise<void> {
    if (contacts.length === 0) return Promise.resolve();
    const now = this.clock.now();
    return this.uow.run(() =>
      this.store.append(
        contacts.map((c) => ({ contactId: c.id, type: 'claimed' as const, detail: { attempt: c.attempt }, at: now })),
        { endWaitsOf: contacts.map((c) => c.id) },
      ),
    );
  }

  /**
   * Due contacts the dispatcher did not dial, and why (until when, where the reason has an end).
   * A `skipped` event is written only for contacts whose waiting reason (or its end) changed, so a
   * dispatcher that finds the same reason on every tick writes nothing more. Returns how many were written.
   */
  skipped(contactIds: readonly string[], reason: SkipReason, until: Date | null): Promise<number> {
    if (contactIds.length === 0) return Promise.resolve(0);
    return this.uow.run(async () => {
      const now = this.clock.now();
      const changed = await this.store.changeWait(contactIds, reason, until, now);
      const detail = { reason, until: until ? until.toISOString() : null };
      await this.store.append(changed.map((contactId) => ({ contactId, type: 'skipped' as const, detail, at: now })));
      return changed.length;
    });
  }

  /** One page of a contact's events, oldest first (the caller checked the contact is the workspace's). */
  async page(contactId: string, query: { cursor?: string; limit: number }): Promise<TimelinePage> {
    const after = decodeTimelineCursor(query.cursor);
    const rows = await this.store.page(contactId, after, query.limit + 1);
    const more = rows.length > query.limit;
    const kept = more ? rows.slice(0, query.limit) : rows;
    return {
      items: kept.map(({ event }) => ({ type: event.type, at: event.at.toISOString(), detail: event.detail })),
      nextCursor: more ? encodeTimelineCursor(kept[kept.length - 1].seq) : null,
    };
  }

  /** Housekeeping: events older than TIMELINE_RETENTION_DAYS go. */
  async purgeExpired(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.timelineRetentionDays * DAY_MS);
    let purged = 0;
    for (let n = PURGE_BATCH; n === PURGE_BATCH; purged += n) n = await this.store.purgeOlderThan(before, PURGE_BATCH);
    return purged;
  }
}
