import { column, defineTable } from '@outreach/platform';

/** A workspace's balance; its row lock serialises every change of that balance. */
export interface WalletRecord {
  workspaceId: string;
  balanceMinor: number;
  currency: string;
  updatedAt: Date;
}

export const WALLETS = defineTable<WalletRecord>('wallets', {
  workspaceId: column.uuid('workspace_id'),
  balanceMinor: column.bigint('balance_minor'),
  currency: column.text('currency'),
  updatedAt: column.timestamp('updated_at'),
});
