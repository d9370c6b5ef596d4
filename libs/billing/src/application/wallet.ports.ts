import type { DebitKind } from '../domain/money';
import type { RechargeProps } from '../domain/recharge';

export interface LedgerEntryView {
  id: string;
  workspaceId: string;
  kind: 'credit' | 'debit';
  /** What a debit paid for (call, message, test_call); null on credits. */
  debitKind: DebitKind | null;
  amountMinor: number;
  balanceAfterMinor: number;
  currency: string;
  reference: string | null;
  description: string | null;
  createdAt: string;
}

/** A ledger entry with its exact keyset position (created_at to the microsecond). */
export interface LedgerPageEntry extends LedgerEntryView {
  positionAt: string;
}

export interface LedgerQuery {
  workspaceId: string;
  kind: 'credit' | 'debit' | null;
  /** Half-open [from, to) range of ISO instants; null = unbounded. */
  from: string | null;
  to: string | null;
  /** Entries strictly after this keyset position in (created_at DESC, id DESC) order. */
  after: { createdAt: string; id: string } | null;
  limit: number;
}

/** A credit as the wallet repository writes it (idempotent by reference when one is given). */
export interface WalletCredit {
  workspaceId: string;
  amountMinor: number;
  currency: string;
  reference: string | null;
  description: string | null;
  at: Date;
  entryId?: string;
}

/** A debit as the wallet repository writes it (idempotent by kind and reference). */
export interface WalletDebit {
  workspaceId: string;
  amountMinor: number;
  currency: string;
  debitKind: DebitKind;
  reference: string;
  description: string;
  at: Date;
  /** The campaign the debit paid for, counted against its budget; absent or null for anything else. */
  campaignId?: string | null;
}

/** One input's share of `debitMany`: a replay or not, and the wallet's balance once the batch is written. */
export interface DebitManyResult {
  replayed: boolean;
  balanceMinor: number;
}

export abstract class WalletRepository {
  /**
   * Adds a credit and its ledger row atomically. With a reference already used for a credit of
   * this workspace, nothing changes and the existing entry is returned (`replayed`).
   * `entryId` names the ledger row (a pending recharge's id when it is credited).
   */
  abstract credit(input: WalletCredit): Promise<{ entry: LedgerEntryView; replayed: boolean }>;

  /**
   * Subtracts a debit and writes its ledger row, in the caller's transaction; the wallet's row is
   * locked from the balance change to the caller's commit, so callers debit last (decisions.md
   * 44.2). The balance may go below 0. Idempotent by (workspace, kind, reference): a second
   * call returns the first entry (`replayed`) and changes nothing.
   */
  abstract debit(input: WalletDebit): Promise<{ entry: LedgerEntryView; replayed: boolean; balanceMinor: number }>;

  /**
   * `debit` of several entries of ONE workspace in one statement (decisions.md 47.5, 47.11): the
   * wallet changed once by their sum and each new row given the balance it left, in the order of
   * the rows' ids (so the chain reads right in ledger order). Answers, per input, whether it was
   * a replay, and the wallet's balance after the whole batch (the same figure on every element).
   */
  abstract debitMany(inputs: readonly WalletDebit[]): Promise<DebitManyResult[]>;

  /** Sum of the debits written for this campaign (its spend against its budget), minor units. */
  abstract campaignSpentMinor(campaignId: string): Promise<number>;

  abstract balance(workspaceId: string): Promise<{ balanceMinor: number; currency: string | null }>;

  /** One page of the ledger, newest first: (created_at DESC, id DESC). */
  abstract ledgerPage(query: LedgerQuery): Promise<LedgerPageEntry[]>;

  abstract findEntry(workspaceId: string, entryId: string): Promise<LedgerEntryView | null>;

  /** created_at (microsecond ISO) of the workspace's latest credit, or null without any. */
  abstract lastCreditAt(workspaceId: string): Promise<string | null>;
}

export abstract class RechargeRepository {
  abstract insert(recharge: RechargeProps): Promise<void>;
  abstract update(recharge: RechargeProps): Promise<void>;
  /** Locks the row (FOR UPDATE) when called inside a transaction with `lock`. */
  abstract findById(workspaceId: string, id: string, options?: { lock?: boolean }): Promise<RechargeProps | null>;
  /** Newest first. */
  abstract list(workspaceId: string, offset: number, limit: number): Promise<{ items: RechargeProps[]; total: number }>;
}

export interface TariffOverride {
  voiceMinuteMinor: number | null;
  messageMinor: number | null;
}

export abstract class TariffRepository {
  abstract find(workspaceId: string): Promise<TariffOverride | null>;
  abstract save(workspaceId: string, tariff: TariffOverride, at: Date): Promise<void>;
}
