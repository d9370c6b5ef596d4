import { Injectable } from '@nestjs/common';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { WalletRepository } from './wallet.ports';

export interface CreditSummary {
  balanceMinor: number;
  currency: string;
  trialUntil: string | null;
  canSpend: boolean;
}

/**
 * Whether a workspace may spend: a positive balance, or an active trial (trialUntil after now).
 * The engine asks before dispatching; a campaign goes CREDIT_EXHAUSTED when this turns false.
 */
@Injectable()
export class CreditStatus {
  constructor(
    private readonly wallets: WalletRepository,
    private readonly workspaces: WorkspaceAdministration,
  ) {}

  async canSpend(workspaceId: string, now: Date): Promise<boolean> {
    return (await this.summary(workspaceId, now)).canSpend;
  }

  async summary(workspaceId: string, now: Date): Promise<CreditSummary> {
    const workspace = await this.workspaces.get(workspaceId);
    const wallet = await this.wallets.balance(workspaceId);
    const trialActive = workspace.trialUntil !== null && new Date(workspace.trialUntil).getTime() > now.getTime();
    return {
      balanceMinor: wallet.balanceMinor,
      currency: wallet.currency ?? workspace.currency,
      trialUntil: workspace.trialUntil,
      canSpend: wallet.balanceMinor > 0 || trialActive,
    };
  }
}
