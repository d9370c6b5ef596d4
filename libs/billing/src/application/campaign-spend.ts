import { Injectable } from '@nestjs/common';
import { WalletRepository } from './wallet.ports';

/**
 * What a campaign has spent: the sum of the ledger debits written for it (WalletDebits with a
 * campaignId). The engine's spend guard reads it before claiming (decisions.md 29.1); billing's
 * tables stay billing's.
 */
@Injectable()
export class CampaignSpend {
  constructor(private readonly wallets: WalletRepository) {}

  /** Minor units debited for the campaign so far (0 without debits). */
  spentMinor(campaignId: string): Promise<number> {
    return this.wallets.campaignSpentMinor(campaignId);
  }
}
