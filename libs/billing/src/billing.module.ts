import { Module } from '@nestjs/common';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { CampaignSpend } from './application/campaign-spend';
import { CreditStatus } from './application/credit-status';
import { CreditWallet } from './application/credit-wallet.use-case';
import { LedgerQueries } from './application/ledger-queries';
import { CreditPendingRecharge, RechargeQueries, RecordPendingRecharge } from './application/recharges';
import { Tariffs } from './application/tariffs';
import { WalletBalance } from './application/wallet-balance';
import { WalletDebits } from './application/wallet-debits.use-case';
import { RechargeRepository, TariffRepository, WalletRepository } from './application/wallet.ports';
import { CreditsController } from './http/credits.controller';
import { SqlRechargeRepository } from './infrastructure/sql-recharge.repository';
import { SqlTariffRepository } from './infrastructure/sql-tariff.repository';
import { SqlWalletRepository } from './infrastructure/sql-wallet.repository';

const exported = [
  CreditWallet,
  WalletBalance,
  CampaignSpend,
  WalletDebits,
  Tariffs,
  CreditStatus,
  LedgerQueries,
  RechargeQueries,
  RecordPendingRecharge,
  CreditPendingRecharge,
];

/** Wallet, ledger, tariffs and recharges, without controllers: for api, worker and cli. */
@Module({
  imports: [WorkspacesCoreModule],
  providers: [
    ...exported,
    { provide: WalletRepository, useClass: SqlWalletRepository },
    { provide: RechargeRepository, useClass: SqlRechargeRepository },
    { provide: TariffRepository, useClass: SqlTariffRepository },
  ],
  exports: exported,
})
export class BillingModule {}

/** The HTTP face of billing: /credits/balance, /credits/ledger, /credits/recharges. */
@Module({ imports: [BillingModule], controllers: [CreditsController] })
export class BillingHttpModule {}
