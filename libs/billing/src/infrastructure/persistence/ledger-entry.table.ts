import { column, defineTable } from '@outreach/platform';
import type { DebitKind } from '../../domain/money';

export type LedgerEntryKind = 'credit' | 'debit';

/** One credit or debit with the balance it left. */
export interface LedgerEntryRecord {
  id: string;
  workspaceId: string;
  kind: LedgerEntryKind;
  /** What a debit paid for; null on credits. */
  debitKind: DebitKind | null;
  amountMinor: number;
  balanceAfterMinor: number;
  currency: string;
  reference: string | null;
  description: string | null;
  createdAt: Date;
  /** The campaign a debit paid for (its budget, decisions.md 29.1); null otherwise. */
  campaignId: string | null;
}

export const LEDGER_ENTRIES = defineTable<LedgerEntryRecord>('ledger_entries', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  kind: column.text<LedgerEntryKind>('kind'),
  debitKind: column.nullableText<DebitKind>('debit_kind'),
  amountMinor: column.bigint('amount_minor'),
  balanceAfterMinor: column.bigint('balance_after_minor'),
  currency: column.text('currency'),
  reference: column.nullableText('reference'),
  description: column.nullableText('description'),
  createdAt: column.timestamp('created_at'),
  campaignId: column.nullableUuid('campaign_id'),
});
