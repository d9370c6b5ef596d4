// WalletBalance (billing's read service for other modules) answering balances a spec sets.
import { WalletBalance } from '../application/wallet-balance';

export class FixedWalletBalance extends WalletBalance {
  /** Balance in minor units per workspace; unknown workspaces have 0, like a never-credited wallet. */
  readonly balances = new Map<string, number>();

  constructor(private readonly currency: string | null = 'USD') {
    super(null as never);
  }

  override async get(workspaceId: string): Promise<{ balanceMinor: number; currency: string | null }> {
    return { balanceMinor: this.balances.get(workspaceId) ?? 0, currency: this.currency };
  }
}
