// In-memory fakes of the billing module's ports, for use-case specs (no Nest, no database).
// Other modules' specs and fakes import this file by relative path; production code never does.
import { randomUUID } from 'node:crypto';
import { DebitManyResult, LedgerEntryView, LedgerPageEntry, LedgerQuery, RechargeRepository, TariffOverride, TariffRepository, WalletCredit, WalletDebit, WalletRepository } from '../application/wallet.ports';
import type { DebitKind } from '../domain/money';
import type { RechargeProps } from '../domain/recharge';

/** created_at at microsecond precision, as the table reports a keyset position. */
const microIso = (at: Date) => at.toISOString().replace('Z', '000Z');

/**
 * Wallets and their ledger, with the port's rules: a wallet appears on first use with the
 * currency of that entry; credits are idempotent by reference, debits by (kind, reference);
 * balances may go below 0; pages are newest first by (created_at, id).
 */
export class InMemoryWalletRepository extends WalletRepository {
  readonly wallets = new Map<string, { balanceMinor: number; currency: string }>();
  readonly entries: LedgerPageEntry[] = [];
  /** The campaign of each campaign debit, by entry id. */
  readonly debitCampaigns = new Map<string, string>();

  async credit(input: WalletCredit): Promise<{ entry: LedgerEntryView; replayed: boolean }> {
    const wallet = this.walletOf(input.workspaceId, input.currency);
    if (input.reference !== null) {
      const existing = this.entries.find((e) => e.workspaceId === input.workspaceId && e.kind === 'credit' && e.reference === input.reference);
      if (existing) return { entry: view(existing), replayed: true };
    }
    wallet.balanceMinor += input.amountMinor;
    const entry = this.append({ ...input, id: input.entryId ?? randomUUID(), kind: 'credit', debitKind: null, balanceAfterMinor: wallet.balanceMinor });
    return { entry: view(entry), replayed: false };
  }

  async debitMany(inputs: readonly WalletDebit[]): Promise<DebitManyResult[]> {
    if (new Set(inputs.map((input) => `${input.debitKind}\u0000${input.reference}`)).size !== inputs.length) {
      throw new Error('debitMany: a reference is named twice');
    }
    const replays: boolean[] = [];
    for (const input of inputs) replays.push((await this.debit(input)).replayed);
    const balanceMinor = inputs.length > 0 ? (this.wallets.get(inputs[0].workspaceId)?.balanceMinor ?? 0) : 0;
    return replays.map((replayed) => ({ replayed, balanceMinor }));
  }

  async debit(input: WalletDebit): Promise<{ entry: LedgerEntryView; replayed: boolean; balanceMinor: number }> {
    const wallet = this.walletOf(input.workspaceId, input.currency);
    const existing = this.entries.find(
      (e) => e.workspaceId === input.workspaceId && e.kind === 'debit' && e.debitKind === input.debitKind && e.reference === input.reference,
    );
    if (existing) return { entry: view(existing), replayed: true, balanceMinor: wallet.balanceMinor };
    wallet.balanceMinor -= input.amountMinor;
    const entry = this.append({ ...input, id: randomUUID(), kind: 'debit', balanceAfterMinor: wallet.balanceMinor });
    if (input.campaignId) this.debitCampaigns.set(entry.id, input.campaignId);
    return { entry: view(entry), replayed: false, balanceMinor: wallet.balanceMinor };
  }

  async campaignSpentMinor(campaignId: string): Promise<number> {
    return this.entries.filter((e) => this.debitCampaigns.get(e.id) === campaignId).reduce((sum, e) => sum + e.amountMinor, 0);
  }

  async balance(workspaceId: string): Promise<{ balanceMinor: number; currency: string | null }> {
    const wallet = this.wallets.get(workspaceId);
    return wallet ? { ...wallet } : { balanceMinor: 0, currency: null };
  }

  async ledgerPage(query: LedgerQuery): Promise<LedgerPageEntry[]> {
    const from = query.from === null ? null : Date.parse(query.from);
    const to = query.to === null ? null : Date.parse(query.to);
    const after = query.after ? { at: Date.parse(query.after.createdAt), id: query.after.id } : null;
    return this.entries
      .filter((e) => e.workspaceId === query.workspaceId)
      .filter((e) => query.kind === null || e.kind === query.kind)
      .filter((e) => from === null || Date.parse(e.positionAt) >= from)
      .filter((e) => to === null || Date.parse(e.positionAt) < to)
      .filter((e) => after === null || compare(e, after) < 0)
      .sort((a, b) => -compare(a, { at: Date.parse(b.positionAt), id: b.id }))
      .slice(0, query.limit)
      .map((e) => ({ ...e }));
  }

  async findEntry(workspaceId: string, entryId: string): Promise<LedgerEntryView | null> {
    const found = this.entries.find((e) => e.workspaceId === workspaceId && e.id === entryId);
    return found ? view(found) : null;
  }

  async lastCreditAt(workspaceId: string): Promise<string | null> {
    const credits = this.entries.filter((e) => e.workspaceId === workspaceId && e.kind === 'credit');
    credits.sort((a, b) => -compare(a, { at: Date.parse(b.positionAt), id: b.id }));
    return credits[0]?.positionAt ?? null;
  }

  private walletOf(workspaceId: string, currency: string): { balanceMinor: number; currency: string } {
    let wallet = this.wallets.get(workspaceId);
    if (!wallet) {
      wallet = { balanceMinor: 0, currency };
      this.wallets.set(workspaceId, wallet);
    }
    return wallet;
  }

  private append(input: {
    id: string;
    workspaceId: string;
    kind: 'credit' | 'debit';
    debitKind: DebitKind | null;
    amountMinor: number;
    balanceAfterMinor: number;
    currency: string;
    reference: string | null;
    description: string | null;
    at: Date;
  }): LedgerPageEntry {
    const entry: LedgerPageEntry = {
      id: input.id,
      workspaceId: input.workspaceId,
      kind: input.kind,
      debitKind: input.debitKind,
      amountMinor: input.amountMinor,
      balanceAfterMinor: input.balanceAfterMinor,
      currency: input.currency,
      reference: input.reference,
      description: input.description,
      createdAt: input.at.toISOString(),
      positionAt: microIso(input.at),
    };
    this.entries.push(entry);
    return entry;
  }
}

function compare(e: LedgerPageEntry, position: { at: number; id: string }): number {
  return Date.parse(e.positionAt) - position.at || (e.id < position.id ? -1 : e.id > position.id ? 1 : 0);
}

function view(e: LedgerPageEntry): LedgerEntryView {
  const { positionAt: _position, ...entry } = e;
  return { ...entry };
}

/** Recharges by id; reads scoped to the workspace; lists newest first. */
export class InMemoryRechargeRepository extends RechargeRepository {
  readonly rows = new Map<string, RechargeProps>();

  async insert(recharge: RechargeProps): Promise<void> {
    if (this.rows.has(recharge.id)) throw new Error(`recharge ${recharge.id} exists`);
    this.rows.set(recharge.id, { ...recharge });
  }

  async update(recharge: RechargeProps): Promise<void> {
    const stored = this.rows.get(recharge.id);
    if (!stored || stored.workspaceId !== recharge.workspaceId) throw new Error(`no recharge ${recharge.id} to update`);
    this.rows.set(recharge.id, { ...stored, status: recharge.status, creditedAt: recharge.creditedAt });
  }

  async findById(workspaceId: string, id: string): Promise<RechargeProps | null> {
    const found = this.rows.get(id);
    return found && found.workspaceId === workspaceId ? { ...found } : null;
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<{ items: RechargeProps[]; total: number }> {
    const all = [...this.rows.values()]
      .filter((r) => r.workspaceId === workspaceId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    return { items: all.slice(offset, offset + limit).map((r) => ({ ...r })), total: all.length };
  }
}

/** Tariff overrides by workspace, with the time each was saved. */
export class InMemoryTariffRepository extends TariffRepository {
  readonly rows = new Map<string, TariffOverride & { savedAt: Date }>();

  async find(workspaceId: string): Promise<TariffOverride | null> {
    const row = this.rows.get(workspaceId);
    return row ? { voiceMinuteMinor: row.voiceMinuteMinor, messageMinor: row.messageMinor } : null;
  }

  async save(workspaceId: string, tariff: TariffOverride, at: Date): Promise<void> {
    this.rows.set(workspaceId, { ...tariff, savedAt: at });
  }
}

export * from './fixed-wallet-balance';
export { FixedCreditStatus, FixedTariffs, RecordedCampaignSpend, RecordingWalletDebits } from './billing-fakes';
