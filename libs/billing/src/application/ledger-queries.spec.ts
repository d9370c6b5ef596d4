import { FixedClock } from '../../../platform/src/testing';
import { testAppConfig } from '../../../workspaces/src/testing';
import { InMemoryWalletRepository } from '../testing';
import { LedgerQueries } from './ledger-queries';

/* LedgerQueries: newest first, keyset pages with signed cursors that pin the filters and the range. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const NOW = new Date('2026-03-15T12:00:00Z');

describe('LedgerQueries', () => {
  let clock: FixedClock;
  let wallets: InMemoryWalletRepository;
  let ledger: LedgerQueries;

  const credit = (at: string, amountMinor = 100, workspaceId = W1) =>
    wallets.credit({ workspaceId, amountMinor, currency: 'USD', reference: null, description: null, at: new Date(at) });
  const debit = (at: string, reference: string, amountMinor = 10) =>
    wallets.debit({ workspaceId: W1, amountMinor, currency: 'USD', debitKind: 'call', reference, description: 'call', at: new Date(at) });

  beforeEach(() => {
    clock = new FixedClock(NOW);
    wallets = new InMemoryWalletRepository();
    ledger = new LedgerQueries(wallets, clock, testAppConfig());
  });

  it('pages newest first without repeating or skipping, and the last page has no cursor', async () => {
    await credit('2026-03-01T00:00:00Z', 1000);
    for (let i = 1; i <= 4; i++) await debit(`2026-03-0${i + 1}T00:00:00Z`, `c${i}`);
    await credit('2026-03-01T00:00:00Z', 5, W2);

    const first = await ledger.page({ workspaceId: W1, limit: 2 });
    expect(first.items.map((e) => e.reference)).toEqual(['c4', 'c3']);
    expect(first.items[0]).not.toHaveProperty('positionAt');
    expect(first.nextCursor).toEqual(expect.any(String));

    const second = await ledger.page({ workspaceId: W1, limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((e) => e.reference)).toEqual(['c2', 'c1']);
    const third = await ledger.page({ workspaceId: W1, limit: 2, cursor: second.nextCursor! });
    expect(third.items.map((e) => e.kind)).toEqual(['credit']);
    expect(third.nextCursor).toBeNull();
  });

  it('entries arriving while a client pages do not shift its pages', async () => {
    for (let i = 1; i <= 3; i++) await debit(`2026-03-0${i}T00:00:00Z`, `c${i}`);
    const first = await ledger.page({ workspaceId: W1, limit: 1 });
    await debit('2026-03-10T00:00:00Z', 'late');
    const second = await ledger.page({ workspaceId: W1, limit: 1, cursor: first.nextCursor! });
    expect(second.items.map((e) => e.reference)).toEqual(['c2']);
  });

  it('filters by kind, and the cursor keeps the filter', async () => {
    await credit('2026-03-01T00:00:00Z');
    await debit('2026-03-02T00:00:00Z', 'c1');
    await credit('2026-03-03T00:00:00Z');
    await debit('2026-03-04T00:00:00Z', 'c2');
    const first = await ledger.page({ workspaceId: W1, kind: 'credit', limit: 1 });
    expect(first.items.map((e) => e.createdAt)).toEqual(['2026-03-03T00:00:00.000Z']);
    const second = await ledger.page({ workspaceId: W1, limit: 1, cursor: first.nextCursor! });
    expect(second.items.map((e) => e.createdAt)).toEqual(['2026-03-01T00:00:00.000Z']);
    expect(second.nextCursor).toBeNull();
  });

  it("resolves 'today' at the clock's now, and the cursor keeps that day after midnight", async () => {
    await debit('2026-03-14T23:59:59Z', 'yesterday');
    await debit('2026-03-15T01:00:00Z', 'a');
    await debit('2026-03-15T02:00:00Z', 'b');
    const first = await ledger.page({ workspaceId: W1, period: 'today', limit: 1 });
    expect(first.items.map((e) => e.reference)).toEqual(['b']);
    clock.set(new Date('2026-03-16T00:30:00Z'));
    const second = await ledger.page({ workspaceId: W1, period: 'today', limit: 1, cursor: first.nextCursor! });
    expect(second.items.map((e) => e.reference)).toEqual(['a']);
    expect(second.nextCursor).toBeNull();
  });

  it('a custom period is the half-open range [from, to)', async () => {
    await debit('2026-03-01T00:00:00Z', 'in');
    await debit('2026-03-02T00:00:00Z', 'out');
    const page = await ledger.page({ workspaceId: W1, period: 'custom', from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') });
    expect(page.items.map((e) => e.reference)).toEqual(['in']);
  });

  it('since_last_recharge starts at the latest credit; no_recharge_found without any', async () => {
    await debit('2026-03-01T00:00:00Z', 'before');
    await expect(ledger.page({ workspaceId: W1, period: 'since_last_recharge' })).rejects.toMatchObject({ code: 'no_recharge_found' });
    await credit('2026-03-02T00:00:00Z');
    await debit('2026-03-03T00:00:00Z', 'after');
    const page = await ledger.page({ workspaceId: W1, period: 'since_last_recharge' });
    expect(page.items.map((e) => e.reference ?? e.kind)).toEqual(['after', 'credit']);
  });

  it.each([0, 201, 1.5])('invalid_query for limit %p', async (limit) => {
    await expect(ledger.page({ workspaceId: W1, limit })).rejects.toMatchObject({ code: 'invalid_query' });
  });

  it('invalid_query for from/to without period=custom', async () => {
    await expect(ledger.page({ workspaceId: W1, from: new Date('2026-03-01T00:00:00Z') })).rejects.toMatchObject({ code: 'invalid_query' });
    await expect(ledger.page({ workspaceId: W1, period: 'today', to: new Date('2026-03-01T00:00:00Z') })).rejects.toMatchObject({ code: 'invalid_query' });
  });

  it('invalid_custom_range for a custom period missing a bound or with from ≥ to', async () => {
    const at = new Date('2026-03-01T00:00:00Z');
    await expect(ledger.page({ workspaceId: W1, period: 'custom', from: at })).rejects.toMatchObject({ code: 'invalid_custom_range' });
    await expect(ledger.page({ workspaceId: W1, period: 'custom', from: at, to: at })).rejects.toMatchObject({ code: 'invalid_custom_range' });
  });

  describe('invalid_cursor', () => {
    let cursor: string;

    beforeEach(async () => {
      await debit('2026-03-01T00:00:00Z', 'c1');
      await debit('2026-03-02T00:00:00Z', 'c2');
      cursor = (await ledger.page({ workspaceId: W1, period: 'this_month', kind: 'debit', limit: 1 })).nextCursor!;
    });

    it('for garbage and for a tampered cursor', async () => {
      await expect(ledger.page({ workspaceId: W1, cursor: 'garbage' })).rejects.toMatchObject({ code: 'invalid_cursor' });
      const [payload, mac] = cursor.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), k: 'credit' })).toString('base64url');
      await expect(ledger.page({ workspaceId: W1, cursor: `${forged}.${mac}` })).rejects.toMatchObject({ code: 'invalid_cursor' });
    });

    it("for another workspace's cursor", async () => {
      await expect(ledger.page({ workspaceId: W2, cursor })).rejects.toMatchObject({ code: 'invalid_cursor' });
    });

    it('for a cursor sent with other filters; the same filters are accepted', async () => {
      await expect(ledger.page({ workspaceId: W1, cursor, period: 'today' })).rejects.toMatchObject({ code: 'invalid_cursor' });
      await expect(ledger.page({ workspaceId: W1, cursor, kind: 'credit' })).rejects.toMatchObject({ code: 'invalid_cursor' });
      await expect(ledger.page({ workspaceId: W1, cursor, from: new Date('2026-03-01T00:00:00Z') })).rejects.toMatchObject({ code: 'invalid_cursor' });
      await expect(ledger.page({ workspaceId: W1, cursor, period: 'this_month', kind: 'debit', limit: 1 })).resolves.toMatchObject({
        items: [{ reference: 'c1' }],
        nextCursor: null,
      });
    });

    it('for a cursor signed with another deployment secret', async () => {
      const other = new LedgerQueries(wallets, clock, testAppConfig({ functionSecretsKey: Buffer.alloc(32, 7) }));
      await expect(other.page({ workspaceId: W1, cursor })).rejects.toMatchObject({ code: 'invalid_cursor' });
    });
  });
});
