import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '@outreach/platform/core';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { assertCreditAmount, assertReference } from '../domain/money';
import { LedgerEntryView, WalletRepository } from './wallet.ports';

/** Operator top-up of a workspace wallet (the CLI's wallet:credit). */
@Injectable()
export class CreditWallet {
  constructor(
    private readonly workspaces: WorkspaceAdministration,
    private readonly wallets: WalletRepository,
    private readonly uow: UnitOfWork,
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
      const { entry, replayed } = await this.wallets.credit({
        workspaceId: workspace.id,
        amountMinor: input.amountMinor,
        currency: workspace.currency,
        reference: input.reference ?? null,
        description: input.description ?? 'Operator credit',
      });
      const { balanceMinor } = await this.wallets.balance(workspace.id);
      return { entry, balanceMinor, replayed };
    });
  }
}
