import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { inMemoryWorkspaceAdministration, seedWorkspace } from '../../../workspaces/src/testing';
import { InMemoryRechargeRepository, InMemoryWalletRepository } from '../testing';
import { CreditWallet } from './credit-wallet.use-case';

/* CreditWallet (operator top-up): a ledger credit and a CREDITED recharge under one id, idempotent by reference. */

const W1 = '11111111-1111-4111-8111-111111111111';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const T0 = new Date('2026-03-01T09:00:00Z');

describe('CreditWallet', () => {
  let wallets: InMemoryWalletRepository;
  let recharges: InMemoryRechargeRepository;
  let uow: RollbackUnitOfWork;
  let clock: FixedClock;
  let creditWallet: CreditWallet;

  beforeEach(async () => {
    clock = new FixedClock(T0);
    const workspaces = inMemoryWorkspaceAdministration({ clock });
    await seedWorkspace(workspaces.workspaces, { id: W1, currency: 'EUR' });
    wallets = new InMemoryWalletRepository();
    recharges = new InMemoryRechargeRepository();
    uow = new RollbackUnitOfWork();
    creditWallet = new CreditWallet(workspaces.administration, wallets, recharges, uow, clock);
  });

  it("credits the wallet in the workspace's currency and records a CREDITED recharge under the entry's id", async () => {
    const result = await creditWallet.execute({ workspaceId: W1, amountMinor: 5000, reference: 'inv-1' });

    expect(result).toMatchObject({ balanceMinor: 5000, replayed: false });
    expect(result.entry).toMatchObject({ kind: 'credit', amountMinor: 5000, balanceAfterMinor: 5000, currency: 'EUR', reference: 'inv-1', description: 'Operator credit', createdAt: T0.toISOString() });
    expect(recharges.rows.get(result.entry.id)).toEqual({
      id: result.entry.id,
      workspaceId: W1,
      status: 'CREDITED',
      amountMinor: 5000,
      currency: 'EUR',
      reference: 'inv-1',
      description: 'Operator credit',
      createdAt: T0,
      creditedAt: T0,
    });
    expect(uow.runs).toBe(1);
  });

  it('adds up credits and keeps the description it is given', async () => {
    await creditWallet.execute({ workspaceId: W1, amountMinor: 100 });
    const second = await creditWallet.execute({ workspaceId: W1, amountMinor: 250, description: 'Goodwill' });
    expect(second).toMatchObject({ balanceMinor: 350, entry: { balanceAfterMinor: 350, description: 'Goodwill', reference: null } });
    expect(recharges.rows.size).toBe(2);
  });

  it('a replayed reference returns the first entry and credits nothing twice', async () => {
    const first = await creditWallet.execute({ workspaceId: W1, amountMinor: 5000, reference: 'inv-1' });
    const again = await creditWallet.execute({ workspaceId: W1, amountMinor: 9999, reference: 'inv-1' });
    expect(again).toEqual({ entry: first.entry, balanceMinor: 5000, replayed: true });
    expect(recharges.rows.size).toBe(1);
    expect(wallets.entries).toHaveLength(1);
  });

  it.each([0, -5, 1.5, 1_000_000_000_001, Number.NaN])('invalid_request for the amount %p, nothing written', async (amountMinor) => {
    await expect(creditWallet.execute({ workspaceId: W1, amountMinor })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(wallets.entries).toHaveLength(0);
    expect(uow.runs).toBe(0);
  });

  it('invalid_request for an empty or over-long reference', async () => {
    await expect(creditWallet.execute({ workspaceId: W1, amountMinor: 1, reference: '' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(creditWallet.execute({ workspaceId: W1, amountMinor: 1, reference: 'r'.repeat(201) })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(wallets.entries).toHaveLength(0);
  });

  it('not_found for an unknown workspace', async () => {
    await expect(creditWallet.execute({ workspaceId: UNKNOWN, amountMinor: 1 })).rejects.toMatchObject({ code: 'not_found' });
    expect(wallets.entries).toHaveLength(0);
  });
});
