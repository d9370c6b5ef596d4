import { freeSlots, LineUse } from './dispatch-slots';

const use = (campaignId: string, reservedConcurrency: number, inFlight: number, extra: Partial<LineUse> = {}): LineUse => ({
  campaignId,
  running: true,
  reservedConcurrency,
  allowBurst: false,
  inFlight,
  ...extra,
});

describe('free dispatch slots', () => {
  it('reservation minus attempts in flight', () => {
    expect(freeSlots('a', 10, [use('a', 3, 0)])).toBe(3);
    expect(freeSlots('a', 10, [use('a', 3, 2)])).toBe(1);
    expect(freeSlots('a', 10, [use('a', 3, 3)])).toBe(0);
  });

  it('burst takes idle unreserved lines, never another campaign’s reservation', () => {
    expect(freeSlots('a', 10, [use('a', 3, 0, { allowBurst: true }), use('b', 4, 0)])).toBe(6);
    // b bursts beyond its reservation by 2: those lines are not idle for a.
    expect(freeSlots('a', 10, [use('a', 3, 0, { allowBurst: true }), use('b', 4, 6, { allowBurst: true })])).toBe(4);
  });

  it('never above the workspace allocation, counting attempts of campaigns that stopped running', () => {
    expect(freeSlots('a', 5, [use('a', 5, 0), use('p', 3, 4, { running: false })])).toBe(1);
    expect(freeSlots('a', 5, [use('a', 5, 0, { allowBurst: true }), use('p', 3, 5, { running: false })])).toBe(0);
  });

  it('a campaign that does not run gets nothing', () => {
    expect(freeSlots('a', 10, [use('a', 3, 0, { running: false })])).toBe(0);
    expect(freeSlots('x', 10, [use('a', 3, 0)])).toBe(0);
  });
});
