// Public surface of the billing module.
import { defineMigrations } from '@outreach/platform';
export * from './billing.errors';
export * from './billing.config';
import { BillingWallets1763700000200 } from './infrastructure/migrations/1763700000200-billing-wallets';
import { BillingDebits1763700003000 } from './infrastructure/migrations/1763700003000-billing-debits';
import { LedgerCampaign1763700009800 } from './infrastructure/migrations/1763700009800-ledger-campaign';

export { BillingModule, BillingHttpModule } from './billing.module';
export { CreditWallet } from './application/credit-wallet.use-case';
export { WalletBalance } from './application/wallet-balance';
export { CampaignSpend } from './application/campaign-spend';
export { WalletDebits, DebitInput } from './application/wallet-debits.use-case';
export { Tariffs, TariffRates } from './application/tariffs';
export { CreditStatus, CreditSummary } from './application/credit-status';
export { LedgerQueries } from './application/ledger-queries';
export {
  CreditPendingRecharge,
  RechargeQueries,
  RechargeReceipt,
  RechargeView,
  RecordPendingRecharge,
} from './application/recharges';
export { DebitManyResult, LedgerEntryView } from './application/wallet.ports';
export { DEBIT_KINDS, DebitKind } from './domain/money';
export { startedMinutes } from './domain/tariff';
export const BILLING_MIGRATIONS = defineMigrations('billing', [BillingWallets1763700000200, BillingDebits1763700003000, LedgerCampaign1763700009800]);
