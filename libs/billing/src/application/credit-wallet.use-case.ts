import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@outreach/core';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { assertCreditAmount, assertReference } from '../domain/money';
import { Recharge } from '../domain/recharge';
import { LedgerEntryView, RechargeRepository, WalletRepository } from './wallet.ports';

/**
 * Operator top-up of a workspace wallet (the CLI's wallet:credit). An operator credit is a
 * recharge that is CREDITED at once: its ledger entry id is the recharge's orderId.
 */
@Injectable()
export class CreditWallet {
  constructor(
    private readonly workspaces: WorkspaceAdministration,
    private readonly wallets: WalletRepository,
    private readonly recharges: RechargeRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: { workspaceId: string; amountMinor: number; reference?: string; description?: string }): Promise<{
    entry: LedgerEntryView;
    balanceMinor: number;
    replayed: boolean;
  }> {
    assertCreditAmount(input.amountMinor);
    assertReference(input.reference);
    const workspace = await this.workspaces.get(input.workspaceId);
    return this.uow.run(async () => {
      const at = this.clock.now();
      const description = input.description ?? 'Operator credit';
      const { entry, replayed } = await this.wallets.credit({
        workspaceId: workspace.id,
        amountMinor: input.amountMinor,
        currency: workspace.currency,
        reference: input.reference ?? null,
        description,
        at,
      });
      if (!replayed) {
        const recharge = Recharge.credited({
          id: entry.id,
          workspaceId: workspace.id,
          amountMinor: entry.amountMinor,
          currency: entry.currency,
          reference: entry.reference,
          description,
          createdAt: at,
        });
        await this.recharges.insert(recharge.toProps());
      }
      const { balanceMinor } = await this.wallets.balance(workspace.id);
      return { entry, balanceMinor, replayed };
    });
  }
}
