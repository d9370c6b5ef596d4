import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { inMemoryWorkspaceAdministration, seedWorkspace } from '../../../workspaces/src/testing';
import { InMemoryWalletRepository } from '../testing';
import { DebitInput, WalletDebits } from './wallet-debits.use-case';

/* WalletDebits: debits for the engine, idempotent by (workspace, kind, reference); the balance may go negative. */

const W1 = '11111111-1111-4111-8111-111111111111';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const T0 = new Date('2026-03-01T09:00:00Z');

const debit = (over: Partial<DebitInput> = {}): DebitInput => ({
  workspaceId: W1,
  amountMinor: 30,
  kind: 'call',
  reference: 'call-1',
  description: 'Call of 3 minutes',
  ...over,
});

describe('WalletDebits', () => {
  let wallets: InMemoryWalletRepository;
  let uow: RollbackUnitOfWork;
  let debits: WalletDebits;

  beforeEach(async () => {
    const clock = new FixedClock(T0);
    const workspaces = inMemoryWorkspaceAdministration({ clock });
    await seedWorkspace(workspaces.workspaces, { id: W1, currency: 'GBP' });
    wallets = new InMemoryWalletRepository();
    uow = new RollbackUnitOfWork();
    debits = new WalletDebits(wallets, workspaces.administration, uow, clock);
  });

  it('writes a debit entry and returns the new balance, below 0 if need be', async () => {
    await wallets.credit({ workspaceId: W1, amountMinor: 20, currency: 'GBP', reference: null, description: null, at: T0 });
    const result = await debits.debit(debit());
    expect(result).toMatchObject({ balanceMinor: -10, replayed: false });
    expect(await wallets.findEntry(W1, result.entryId)).toMatchObject({
      kind: 'debit',
      debitKind: 'call',
      amountMinor: 30,
      balanceAfterMinor: -10,
      currency: 'GBP',
      reference: 'call-1',
      description: 'Call of 3 minutes',
      createdAt: T0.toISOString(),
    });
    expect(uow.runs).toBe(1);
  });

  it("takes the workspace's currency for a wallet that does not exist yet", async () => {
    const result = await debits.debit(debit({ amountMinor: 5 }));
    expect(result.balanceMinor).toBe(-5);
    await expect(wallets.balance(W1)).resolves.toEqual({ balanceMinor: -5, currency: 'GBP' });
  });

  it("reads a wallet's currency once: it never changes, even when the workspace's does (decisions.md 44.9)", async () => {
    await wallets.credit({ workspaceId: W1, amountMinor: 100, currency: 'EUR', reference: null, description: null, at: T0 });
    const balance = jest.spyOn(wallets, 'balance');
    const first = await debits.debit(debit({ reference: 'call-1' }));
    const second = await debits.debit(debit({ reference: 'call-2' }));
    expect(balance).toHaveBeenCalledTimes(1);
    expect(await wallets.findEntry(W1, first.entryId)).toMatchObject({ currency: 'EUR' });
    expect(await wallets.findEntry(W1, second.entryId)).toMatchObject({ currency: 'EUR', balanceAfterMinor: 40 });
  });

  it('a retried job debits nothing twice: same (kind, reference) returns the first entry', async () => {
    const first = await debits.debit(debit());
    const again = await debits.debit(debit({ amountMinor: 999 }));
    expect(again).toEqual({ balanceMinor: -30, entryId: first.entryId, replayed: true });
    expect(wallets.entries).toHaveLength(1);
  });

  it('another kind with the same reference is another debit', async () => {
    await debits.debit(debit({ kind: 'call' }));
    const message = await debits.debit(debit({ kind: 'message', amountMinor: 1 }));
    expect(message).toMatchObject({ balanceMinor: -31, replayed: false });
  });

  it('a 0 debit still leaves its audit row', async () => {
    const result = await debits.debit(debit({ amountMinor: 0 }));
    expect(result).toMatchObject({ balanceMinor: 0, replayed: false });
    expect(wallets.entries).toHaveLength(1);
  });

  it.each([
    ['a negative amount', { amountMinor: -1 }],
    ['a fractional amount', { amountMinor: 1.5 }],
    ['an unknown kind', { kind: 'sms' as never }],
    ['an empty reference', { reference: '' }],
    ['an over-long reference', { reference: 'r'.repeat(201) }],
  ])('invalid_request for %s, nothing written', async (_what, over) => {
    await expect(debits.debit(debit(over))).rejects.toMatchObject({ code: 'invalid_request' });
    expect(wallets.entries).toHaveLength(0);
    expect(uow.runs).toBe(0);
  });

  it('not_found for an unknown workspace without a wallet', async () => {
    await expect(debits.debit(debit({ workspaceId: UNKNOWN }))).rejects.toMatchObject({ code: 'not_found' });
    expect(wallets.entries).toHaveLength(0);
  });
});
