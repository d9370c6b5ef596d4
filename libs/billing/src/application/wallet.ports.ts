export interface LedgerEntryView {
  id: string;
  workspaceId: string;
  kind: 'credit' | 'debit';
  amountMinor: number;
  balanceAfterMinor: number;
  currency: string;
  reference: string | null;
  description: string | null;
  createdAt: string;
}

export abstract class WalletRepository {
  /**
   * Adds a credit and its ledger row atomically. With a reference already used for a credit of
   * this workspace, nothing changes and the existing entry is returned (`replayed`).
   */
  abstract credit(input: {
    workspaceId: string;
    amountMinor: number;
    currency: string;
    reference: string | null;
    description: string | null;
  }): Promise<{ entry: LedgerEntryView; replayed: boolean }>;

  abstract balance(workspaceId: string): Promise<{ balanceMinor: number; currency: string | null }>;
}
