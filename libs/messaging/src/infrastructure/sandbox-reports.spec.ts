import { Logger } from '@nestjs/common';
import { FixedClock } from '@outreach/core';
import { MessageEvent, MessageEvents } from '../application/message-provider.port';
import { SandboxReports } from './sandbox-reports';

const flushed = () => new Promise((r) => setTimeout(r, 20));
const event = (messageId: string, i: number, at: Date): MessageEvent => ({
  channel: 'WHATSAPP',
  type: i === 0 ? 'delivered' : 'read',
  provider: 'sandbox',
  eventId: `${messageId}.${i}`,
  messageId,
  providerMessageId: `p-${messageId}`,
  at,
});

/** decisions.md 47.18: the sandbox's reports of one turn in one batch, each message's in order. */
describe('SandboxReports', () => {
  const logger = new Logger('test');
  beforeAll(() => jest.spyOn(logger, 'warn').mockImplementation(() => undefined));

  it('delivers the reports of one turn in one batch, each message keeping its order', async () => {
    const events = new MessageEvents();
    const batches: string[][] = [];
    events.subscribeMany(async (batch) => void batches.push(batch.map((e) => e.eventId)));
    const reports = new SandboxReports(events, new FixedClock(new Date('2026-11-29T10:00:00Z')), logger);
    reports.report('a', (at) => [event('a', 0, at), event('a', 1, at)]);
    reports.report('b', (at) => [event('b', 0, at)]);
    reports.report('c', (at) => [event('c', 0, at), event('c', 1, at)]);
    expect(batches).toEqual([]); // nothing before the turn ends
    await flushed();
    expect(batches).toEqual([['a.0', 'a.1', 'b.0', 'c.0', 'c.1']]);
  });

  it('a message reported twice in one turn: its second set comes in the next batch', async () => {
    const events = new MessageEvents();
    const batches: string[][] = [];
    events.subscribeMany(async (batch) => void batches.push(batch.map((e) => `${e.eventId}@${e.at.toISOString().slice(11, 19)}`)));
    const clock = new FixedClock(new Date('2026-11-29T10:00:00Z'));
    const reports = new SandboxReports(events, clock, logger);
    reports.report('a', (at) => [event('a', 0, at), event('a', 1, at)]);
    reports.report('a', (at) => [event('a', 0, at)]);
    clock.set(new Date('2026-11-29T10:00:05Z')); // `at` is the clock's time when the turn's reports go out
    await flushed();
    expect(batches).toEqual([['a.0@10:00:05', 'a.1@10:00:05'], ['a.0@10:00:05']]);
  });

  it('a batch a subscriber refuses is delivered again one report at a time, so one bad report never drops the others', async () => {
    const events = new MessageEvents();
    const applied: string[] = [];
    events.subscribeMany(async (batch) => {
      if (batch.some((e) => e.messageId === 'bad')) throw new Error('refused');
      applied.push(...batch.map((e) => e.eventId));
    });
    const reports = new SandboxReports(events, new FixedClock(new Date('2026-11-29T10:00:00Z')), logger);
    reports.report('a', (at) => [event('a', 0, at), event('a', 1, at)]);
    reports.report('bad', (at) => [event('bad', 0, at)]);
    reports.report('c', (at) => [event('c', 0, at)]);
    await flushed();
    expect(applied).toEqual(['a.0', 'a.1', 'c.0']);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('bad.0'));
  });

  it('queues nothing while nobody listens', async () => {
    const events = new MessageEvents();
    const reports = new SandboxReports(events, new FixedClock(new Date()), logger);
    const build = jest.fn(() => [] as MessageEvent[]);
    reports.report('a', build);
    await flushed();
    expect(build).not.toHaveBeenCalled();
  });
});
