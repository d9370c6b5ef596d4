import { MessageEvent, MessageEvents } from './message-provider.port';

const turn = () => new Promise((r) => setTimeout(r, 5));
const delivered = (messageId: string): MessageEvent => ({
  channel: 'WHATSAPP',
  type: 'delivered',
  provider: 'sandbox',
  eventId: `${messageId}.0`,
  messageId,
  providerMessageId: `p-${messageId}`,
  at: new Date('2026-11-29T10:00:00Z'),
});

/** decisions.md 47.13: a send holds its messages' reports in this process until it is on record. */
describe('MessageEvents.holding', () => {
  function recorder() {
    const events = new MessageEvents();
    const seen: string[] = [];
    events.subscribeMany(async (batch) => void seen.push(batch.map((e) => e.messageId).join(',')));
    return { events, seen };
  }

  it('a report of a held message waits for the send to end; others go at once', async () => {
    const { events, seen } = recorder();
    let finish!: () => void;
    const sending = events.holding(['a'], () => new Promise<string>((resolve) => (finish = () => resolve('recorded'))));
    const report = events.deliverMany([delivered('a'), delivered('b')]);
    const other = events.deliverMany([delivered('c')]);
    await other;
    await turn();
    expect(seen).toEqual(['c']); // the batch naming a waits whole; c's went through
    seen.push('send recorded');
    finish();
    expect(await sending).toBe('recorded');
    await report;
    expect(seen).toEqual(['c', 'send recorded', 'a,b']);
  });

  it('two holds of one message: its reports wait for the last; a send that throws still lets them go', async () => {
    const { events, seen } = recorder();
    let finishFirst!: () => void;
    const first = events.holding(['a'], () => new Promise<void>((resolve) => (finishFirst = resolve)));
    const second = events.holding(['a'], async () => {
      await turn();
      throw new Error('provider down');
    });
    const report = events.deliver(delivered('a'));
    await expect(second).rejects.toThrow('provider down');
    await turn();
    expect(seen).toEqual([]); // the first hold is still open
    finishFirst();
    await first;
    await report;
    expect(seen).toEqual(['a']);
  });

  it('nothing held: a delivery goes at once, and a hold that ended leaves nothing behind', async () => {
    const { events, seen } = recorder();
    await events.holding(['a'], async () => undefined);
    await events.deliver(delivered('a'));
    expect(seen).toEqual(['a']);
  });
});
