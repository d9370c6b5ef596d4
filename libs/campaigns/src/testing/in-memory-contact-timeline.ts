import { AppConfig, FixedClock, UnitOfWork } from '@outreach/core';
import { Rollbackable, RollbackUnitOfWork } from '../../../platform/src/testing';
import { ContactTimeline, ContactTimelineStore } from '../application/contact-timeline';
import { SkipReason, TIMELINE_EVENTS_PER_CONTACT, TimelineEvent } from '../domain/contact-timeline';

/**
 * contact_timeline_events and contact_waits in memory, with the store's rules (per-contact bound,
 * wait changes); a RollbackUnitOfWork participant, so a failed transaction leaves no event.
 */
export class InMemoryContactTimelineStore extends ContactTimelineStore implements Rollbackable {
  readonly events: Array<{ seq: number; event: TimelineEvent }> = [];
  readonly waits = new Map<string, { reason: SkipReason; until: Date | null }>();
  private seq = 0;

  async append(events: readonly TimelineEvent[], options: { endWaitsOf?: readonly string[] } = {}): Promise<void> {
    for (const id of options.endWaitsOf ?? []) this.waits.delete(id);
    for (const event of events) this.events.push({ seq: ++this.seq, event: { ...event } });
    for (const contactId of new Set(events.map((e) => e.contactId))) {
      const mine = this.events.filter((r) => r.event.contactId === contactId);
      for (const old of mine.slice(0, Math.max(0, mine.length - TIMELINE_EVENTS_PER_CONTACT))) this.events.splice(this.events.indexOf(old), 1);
    }
  }

  async changeWait(contactIds: readonly string[], reason: SkipReason, until: Date | null): Promise<string[]> {
    const changed: string[] = [];
    for (const id of new Set(contactIds)) {
      const current = this.waits.get(id);
      if (current && current.reason === reason && (current.until?.getTime() ?? null) === (until?.getTime() ?? null)) continue;
      this.waits.set(id, { reason, until });
      changed.push(id);
    }
    return changed;
  }

  async page(contactId: string, afterSeq: string | null, limit: number): Promise<Array<{ seq: string; event: TimelineEvent }>> {
    return this.events
      .filter((r) => r.event.contactId === contactId && (afterSeq === null || r.seq > Number(afterSeq)))
      .slice(0, limit)
      .map((r) => ({ seq: String(r.seq), event: r.event }));
  }

  async purgeOlderThan(before: Date, limit: number): Promise<number> {
    const old = this.events.filter((r) => r.event.at.getTime() < before.getTime()).slice(0, limit);
    for (const r of old) this.events.splice(this.events.indexOf(r), 1);
    return old.length;
  }

  snapshot(): unknown {
    return { events: this.events.map((r) => ({ ...r })), waits: new Map(this.waits) };
  }

  restore(state: unknown): void {
    const saved = state as { events: InMemoryContactTimelineStore['events']; waits: InMemoryContactTimelineStore['waits'] };
    this.events.splice(0, this.events.length, ...saved.events);
    this.waits.clear();
    for (const [id, wait] of saved.waits) this.waits.set(id, wait);
  }

  /** The types of a contact's events, in order. */
  typesOf(contactId: string): string[] {
    return this.events.filter((r) => r.event.contactId === contactId).map((r) => r.event.type);
  }
}

/** A ContactTimeline over an in-memory store (its `recorded` member: the store), for specs of its writers. */
export function inMemoryTimeline(
  options: { store?: InMemoryContactTimelineStore; uow?: UnitOfWork; clock?: FixedClock; retentionDays?: number } = {},
): ContactTimeline & { recorded: InMemoryContactTimelineStore } {
  const store = options.store ?? new InMemoryContactTimelineStore();
  const timeline = new ContactTimeline(
    store,
    options.uow ?? new RollbackUnitOfWork(),
    options.clock ?? new FixedClock(new Date('2026-01-01T00:00:00Z')),
    { timelineRetentionDays: options.retentionDays ?? 30 } as AppConfig,
  );
  return Object.assign(timeline, { recorded: store });
}
