import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@outreach/core';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { assertDebitAmount, assertDebitKind, assertDebitReference, DebitKind } from '../domain/money';
import { DebitManyResult, WalletDebit, WalletRepository } from './wallet.ports';

export interface DebitInput {
  workspaceId: string;
  /** Minor units, ≥ 0 (see Tariffs); 0 still writes an audit row. */
  amountMinor: number;
  kind: DebitKind;
  /** What was paid for, e.g. the call id: (workspace, kind, reference) is debited once. */
  reference: string;
  description: string;
  /** The campaign this debit pays for (a campaign call): counted against the campaign's budget. */
  campaignId?: string | null;
}

/** Workspaces whose wallet currency one process keeps; past this the map starts again. */
const MAX_KEPT_CURRENCIES = 10_000;

/**
 * Debits for the engine: call minutes, messages, test calls. Runs in the caller's UnitOfWork
 * transaction (so the debit commits with the outcome it pays for) or opens one. The wallet row
 * is locked for the rest of that transaction; the balance may go negative (the call already
 * happened). A retried job debits nothing twice: the same (workspace, kind, reference) returns
 * the first entry with `replayed: true`.
 */
@Injectable()
export class WalletDebits {
  /**
   * A wallet's currency, once it has one: set when the wallet is created and never changed, so it is
   * read once per workspace and process instead of once per debit (decisions.md 44.9).
   */
  private readonly walletCurrencies = new Map<string, string>();

  constructor(
    private readonly wallets: WalletRepository,
    private readonly workspaces: WorkspaceAdministration,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async debit(input: DebitInput): Promise<{ balanceMinor: number; entryId: string; replayed: boolean }> {
    assertDebit(input);
    return this.uow.run(async () => {
      const currency = this.walletCurrencies.get(input.workspaceId) ?? (await this.currencyOf(input.workspaceId));
      const { entry, replayed, balanceMinor } = await this.wallets.debit(walletDebit(input, currency, this.clock.now()));
      return { balanceMinor, entryId: entry.id, replayed };
    });
  }

  /**
   * `debit` of several entries of one workspace together (decisions.md 47.5, 47.11, 16.38): one
   * statement (a second when some were debited before) and one change of the wallet's balance for
   * the batch, its row locked from then to the commit.
   * Each reference is named once per call. Every element carries the balance the batch left.
   */
  async debitMany(inputs: readonly DebitInput[]): Promise<DebitManyResult[]> {
    inputs.forEach(assertDebit);
    if (inputs.length === 0) return [];
    return this.uow.run(async () => {
      const workspaceId = inputs[0].workspaceId;
      const currency = this.walletCurrencies.get(workspaceId) ?? (await this.currencyOf(workspaceId));
      const at = this.clock.now();
      return this.wallets.debitMany(inputs.map((input) => walletDebit(input, currency, at)));
    });
  }

  /** The wallet's currency; a workspace without a wallet yet debits in its own currency. */
  private async currencyOf(workspaceId: string): Promise<string> {
    const wallet = await this.wallets.balance(workspaceId);
    if (wallet.currency === null) return (await this.workspaces.get(workspaceId)).currency;
    if (this.walletCurrencies.size >= MAX_KEPT_CURRENCIES) this.walletCurrencies.clear();
    this.walletCurrencies.set(workspaceId, wallet.currency);
    return wallet.currency;
  }
}

function assertDebit(input: DebitInput): void {
  assertDebitAmount(input.amountMinor);
  assertDebitKind(input.kind);
  assertDebitReference(input.reference);
}

/** A debit as the wallet repository writes it. */
function walletDebit(input: DebitInput, currency: string, at: Date): WalletDebit {
  return {
    workspaceId: input.workspaceId,
    amountMinor: input.amountMinor,
    currency,
    debitKind: input.kind,
    reference: input.reference,
    description: input.description,
    at,
    campaignId: input.campaignId ?? null,
  };
}
