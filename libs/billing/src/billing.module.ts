import { Module } from '@nestjs/common';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { CreditWallet } from './application/credit-wallet.use-case';
import { WalletBalance } from './application/wallet-balance';
import { WalletRepository } from './application/wallet.ports';
import { TypeormWalletRepository } from './infrastructure/typeorm-wallet.repository';

/** Wallet and ledger. The foundation holds credits; the engine adds debits and the HTTP routes. */
@Module({
  imports: [WorkspacesCoreModule],
  providers: [CreditWallet, WalletBalance, { provide: WalletRepository, useClass: TypeormWalletRepository }],
  exports: [CreditWallet, WalletBalance],
})
export class BillingModule {}
