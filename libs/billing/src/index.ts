// Public surface of the billing module.
import { BillingWallets1763700000200 } from './infrastructure/migrations/1763700000200-billing-wallets';

export { BillingModule } from './billing.module';
export { CreditWallet } from './application/credit-wallet.use-case';
export { WalletBalance } from './application/wallet-balance';
export { LedgerEntryView } from './application/wallet.ports';
export const BILLING_MIGRATIONS = [BillingWallets1763700000200];
