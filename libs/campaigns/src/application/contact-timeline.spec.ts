import { FixedClock } from '../../../platform/src/testing';
import { TIMELINE_EVENTS_PER_CONTACT } from '../domain/contact-timeline';
import { inMemoryTimeline } from '../testing';
import { encodeTimelineCursor } from './contact-timeline';

/* ContactTimeline over its in-memory store: skip de-duplication, the per-contact bound, pages and retention. */

const T0 = new Date('2026-11-18T23:35:00Z');
const NINE = new Date('2026-11-19T09:00:00Z');

describe('ContactTimeline', () => {
  const setup = () => {
    const clock = new FixedClock(T0);
    return { clock, timeline: inMemoryTimeline({ clock }) };
  };

  it('records a skip only when the reason or its end changes; a claim starts over', async () => {
    const { clock, timeline } = setup();
    expect(await timeline.skipped(['a', 'b'], 'outside_campaign_window', NINE)).toBe(2);
    clock.advance(60_000);
    expect(await timeline.skipped(['a', 'b'], 'outside_campaign_window', NINE)).toBe(0);
    expect(await timeline.skipped(['a'], 'daily_cap', NINE)).toBe(1);
    expect(await timeline.skipped(['a'], 'daily_cap', new Date(NINE.getTime() + 86_400_000))).toBe(1);
    await timeline.claimed([{ id: 'b', attempt: 1 }]);
    expect(await timeline.skipped(['b'], 'outside_campaign_window', NINE)).toBe(1);

    expect(timeline.recorded.typesOf('a')).toEqual(['skipped', 'skipped', 'skipped']);
    expect(timeline.recorded.typesOf('b')).toEqual(['skipped', 'claimed', 'skipped']);
  });

  it(`keeps the newest ${TIMELINE_EVENTS_PER_CONTACT} events of a contact`, async () => {
    const { timeline } = setup();
    for (let i = 0; i < TIMELINE_EVENTS_PER_CONTACT + 5; i++) await timeline.record({ contactId: 'a', type: 'claimed', detail: { attempt: i + 1 } });
    await timeline.record({ contactId: 'b', type: 'created', detail: { source: 'CSV' } });
    const kept = timeline.recorded.events.filter((r) => r.event.contactId === 'a');
    expect(kept).toHaveLength(TIMELINE_EVENTS_PER_CONTACT);
    expect(kept[0].event.detail).toEqual({ attempt: 6 });
    expect(timeline.recorded.typesOf('b')).toEqual(['created']);
  });

  it('pages oldest first with an opaque cursor; a foreign or malformed cursor is invalid_cursor', async () => {
    const { timeline } = setup();
    await timeline.record(
      { contactId: 'a', type: 'created', detail: { source: 'API' } },
      { contactId: 'a', type: 'claimed', detail: { attempt: 1 } },
      { contactId: 'a', type: 'attempt_started', detail: { attempt: 1 } },
    );
    const first = await timeline.page('a', { limit: 2 });
    expect(first.items.map((e) => e.type)).toEqual(['created', 'claimed']);
    expect(first.items[0]).toEqual({ type: 'created', at: T0.toISOString(), detail: { source: 'API' } });
    const second = await timeline.page('a', { cursor: first.nextCursor!, limit: 2 });
    expect(second).toEqual({ items: [{ type: 'attempt_started', at: T0.toISOString(), detail: { attempt: 1 } }], nextCursor: null });

    for (const cursor of ['%%%', Buffer.from('results:1').toString('base64url'), encodeTimelineCursor('1') + 'x']) {
      await expect(timeline.page('a', { cursor, limit: 2 })).rejects.toMatchObject({ code: 'invalid_cursor' });
    }
  });

  it('forgets events older than the retention', async () => {
    const { clock, timeline } = setup();
    await timeline.record({ contactId: 'a', type: 'created' });
    clock.advance(31 * 86_400_000);
    await timeline.record({ contactId: 'a', type: 'claimed' });
    expect(await timeline.purgeExpired()).toBe(1);
    expect(timeline.recorded.typesOf('a')).toEqual(['claimed']);
  });
});
