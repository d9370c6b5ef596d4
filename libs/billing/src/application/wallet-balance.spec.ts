import { InMemoryWalletRepository } from '../testing';
import { WalletBalance } from './wallet-balance';

/* WalletBalance: the read other modules use. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';

describe('WalletBalance', () => {
  it('0 without currency for a workspace never credited; the balance and currency after credits and debits', async () => {
    const wallets = new InMemoryWalletRepository();
    const balance = new WalletBalance(wallets);
    await expect(balance.get(W1)).resolves.toEqual({ balanceMinor: 0, currency: null });

    const at = new Date('2026-03-01T09:00:00Z');
    await wallets.credit({ workspaceId: W1, amountMinor: 500, currency: 'USD', reference: null, description: null, at });
    await wallets.debit({ workspaceId: W1, amountMinor: 120, currency: 'USD', debitKind: 'call', reference: 'c1', description: 'call', at });
    await expect(balance.get(W1)).resolves.toEqual({ balanceMinor: 380, currency: 'USD' });
    await expect(balance.get(W2)).resolves.toEqual({ balanceMinor: 0, currency: null });
  });
});
