import { Injectable } from '@nestjs/common';
import { WalletRepository } from './wallet.ports';

/** Read-only view of a workspace's wallet for other modules (e.g. the campaign start checks). */
@Injectable()
export class WalletBalance {
  constructor(private readonly wallets: WalletRepository) {}

  /** Balance in integer minor units (0 for a workspace that has never been credited). */
  get(workspaceId: string): Promise<{ balanceMinor: number; currency: string | null }> {
    return this.wallets.balance(workspaceId);
  }
}
