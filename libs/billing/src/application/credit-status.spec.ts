import { inMemoryWorkspaceAdministration, seedWorkspace } from '../../../workspaces/src/testing';
import { InMemoryWalletRepository } from '../testing';
import { CreditStatus } from './credit-status';

/* CreditStatus: may the workspace spend? A positive balance or an active trial. */

const W1 = '11111111-1111-4111-8111-111111111111';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const NOW = new Date('2026-03-01T09:00:00Z');

describe('CreditStatus', () => {
  let wallets: InMemoryWalletRepository;
  let workspaces: ReturnType<typeof inMemoryWorkspaceAdministration>;
  let status: CreditStatus;

  beforeEach(() => {
    wallets = new InMemoryWalletRepository();
    workspaces = inMemoryWorkspaceAdministration();
    status = new CreditStatus(wallets, workspaces.administration);
  });

  const credit = (amountMinor: number) => wallets.credit({ workspaceId: W1, amountMinor, currency: 'USD', reference: null, description: null, at: NOW });
  const debit = (amountMinor: number) =>
    wallets.debit({ workspaceId: W1, amountMinor, currency: 'USD', debitKind: 'call', reference: `c${amountMinor}`, description: 'call', at: NOW });

  it('can spend with a positive balance', async () => {
    await seedWorkspace(workspaces.workspaces, { id: W1 });
    await credit(100);
    await expect(status.summary(W1, NOW)).resolves.toEqual({ balanceMinor: 100, currency: 'USD', trialUntil: null, canSpend: true });
    await expect(status.canSpend(W1, NOW)).resolves.toBe(true);
  });

  it('cannot spend at 0 or below without a trial', async () => {
    await seedWorkspace(workspaces.workspaces, { id: W1 });
    await expect(status.canSpend(W1, NOW)).resolves.toBe(false);
    await credit(100);
    await debit(100);
    await expect(status.canSpend(W1, NOW)).resolves.toBe(false);
    await debit(1);
    await expect(status.summary(W1, NOW)).resolves.toMatchObject({ balanceMinor: -1, canSpend: false });
  });

  it('can spend during a trial, not from the instant it ends', async () => {
    const trialUntil = new Date('2026-03-02T00:00:00Z');
    await seedWorkspace(workspaces.workspaces, { id: W1, trialUntil });
    await expect(status.summary(W1, NOW)).resolves.toMatchObject({ balanceMinor: 0, trialUntil: '2026-03-02T00:00:00.000Z', canSpend: true });
    await expect(status.canSpend(W1, trialUntil)).resolves.toBe(false);
    await expect(status.canSpend(W1, new Date(trialUntil.getTime() - 1))).resolves.toBe(true);
  });

  it("the workspace's currency while it has no wallet, the wallet's once it has one", async () => {
    await seedWorkspace(workspaces.workspaces, { id: W1, currency: 'INR' });
    await expect(status.summary(W1, NOW)).resolves.toMatchObject({ currency: 'INR' });
    await wallets.credit({ workspaceId: W1, amountMinor: 1, currency: 'EUR', reference: null, description: null, at: NOW });
    await expect(status.summary(W1, NOW)).resolves.toMatchObject({ currency: 'EUR' });
  });

  it('not_found for an unknown workspace', async () => {
    await expect(status.canSpend(UNKNOWN, NOW)).rejects.toMatchObject({ code: 'not_found' });
  });
});
