import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { LedgerEntryView, LedgerPageEntry, LedgerQuery, WalletCredit, WalletDebit, WalletRepository } from '../application/wallet.ports';
import { LEDGER_ENTRIES, LedgerEntryRecord } from './persistence/ledger-entry.table';
import { WALLETS } from './persistence/wallet.table';

const l = LEDGER_ENTRIES.c;
const w = WALLETS.c;
const ENTRY = LEDGER_ENTRIES.select();
/** created_at to the microsecond, in UTC: the exact keyset position of a row. */
const POSITION_AT = `to_char(${l.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function toView(row: Record<string, unknown>): LedgerEntryView {
  // The campaign of a debit is billing's own bookkeeping (budgets), not a member of the ledger's view.
  const { campaignId: _campaign, ...entry } = LEDGER_ENTRIES.fromRow(row);
  return { ...entry, createdAt: entry.createdAt.toISOString() };
}

@Injectable()
export class SqlWalletRepository extends WalletRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async credit(input: WalletCredit): Promise<{ entry: LedgerEntryView; replayed: boolean }> {
    const m = this.tx.manager;
    await this.lockWallet(input.workspaceId, input.currency);
    if (input.reference !== null) {
      const existing: Array<Record<string, unknown>> = await m.query(
        `SELECT ${ENTRY} FROM ${LEDGER_ENTRIES.name} WHERE ${l.workspaceId} = $1 AND ${l.kind} = 'credit' AND ${l.reference} = $2`,
        [input.workspaceId, input.reference],
      );
      if (existing[0]) return { entry: toView(existing[0]), replayed: true };
    }
    const balanceAfter = await this.addToBalance(input.workspaceId, input.amountMinor);
    const entry = await this.insertEntry({
      id: input.entryId ?? randomUUID(),
      workspaceId: input.workspaceId,
      kind: 'credit',
      debitKind: null,
      amountMinor: input.amountMinor,
      balanceAfterMinor: balanceAfter,
      currency: input.currency,
      reference: input.reference,
      description: input.description,
      createdAt: input.at,
      campaignId: null,
    });
    return { entry, replayed: false };
  }

  async debit(input: WalletDebit): Promise<{ entry: LedgerEntryView; replayed: boolean; balanceMinor: number }> {
    const m = this.tx.manager;
    const current = await this.lockWallet(input.workspaceId, input.currency);
    // Under the wallet lock, the look-up and the insert cannot interleave with another debit.
    const existing: Array<Record<string, unknown>> = await m.query(
      `SELECT ${ENTRY} FROM ${LEDGER_ENTRIES.name}
        WHERE ${l.workspaceId} = $1 AND ${l.kind} = 'debit' AND ${l.debitKind} = $2 AND ${l.reference} = $3`,
      [input.workspaceId, input.debitKind, input.reference],
    );
    if (existing[0]) return { entry: toView(existing[0]), replayed: true, balanceMinor: current };
    const balanceAfter = await this.addToBalance(input.workspaceId, -input.amountMinor);
    const entry = await this.insertEntry({
      id: randomUUID(),
      workspaceId: input.workspaceId,
      kind: 'debit',
      debitKind: input.debitKind,
      amountMinor: input.amountMinor,
      balanceAfterMinor: balanceAfter,
      currency: input.currency,
      reference: input.reference,
      description: input.description,
      createdAt: input.at,
      campaignId: input.campaignId ?? null,
    });
    return { entry, replayed: false, balanceMinor: balanceAfter };
  }

  async campaignSpentMinor(campaignId: string): Promise<number> {
    // ledger_entries_campaign_debits_idx: an index-only scan over the campaign's debits.
    const [row]: Array<{ spent: string }> = await this.tx.manager.query(
      `SELECT COALESCE(SUM(${l.amountMinor}), 0)::bigint AS spent FROM ${LEDGER_ENTRIES.name}
        WHERE ${l.kind} = 'debit' AND ${l.campaignId} = $1 AND ${l.campaignId} IS NOT NULL`,
      [campaignId],
    );
    return Number(row.spent);
  }

  async balance(workspaceId: string): Promise<{ balanceMinor: number; currency: string | null }> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${WALLETS.select(undefined, ['balanceMinor', 'currency'])} FROM ${WALLETS.name} WHERE ${w.workspaceId} = $1`,
      [workspaceId],
    );
    return rows[0] ? WALLETS.fromRow(rows[0], ['balanceMinor', 'currency']) : { balanceMinor: 0, currency: null };
  }

  async ledgerPage(query: LedgerQuery): Promise<LedgerPageEntry[]> {
    const params: unknown[] = [query.workspaceId];
    const where = [`${l.workspaceId} = $1`];
    if (query.kind) where.push(`${l.kind} = $${params.push(query.kind)}`);
    if (query.from) where.push(`${l.createdAt} >= $${params.push(query.from)}::timestamptz`);
    if (query.to) where.push(`${l.createdAt} < $${params.push(query.to)}::timestamptz`);
    if (query.after) {
      const at = params.push(query.after.createdAt);
      const id = params.push(query.after.id);
      where.push(`(${l.createdAt}, ${l.id}) < ($${at}::timestamptz, $${id}::uuid)`);
    }
    const rows: Array<Record<string, unknown> & { position_at: string }> = await this.tx.manager.query(
      `SELECT ${ENTRY}, ${POSITION_AT} AS position_at FROM ${LEDGER_ENTRIES.name}
        WHERE ${where.join(' AND ')}
        ORDER BY ${l.createdAt} DESC, ${l.id} DESC
        LIMIT $${params.push(query.limit)}`,
      params,
    );
    return rows.map((row) => ({ ...toView(row), positionAt: row.position_at }));
  }

  async findEntry(workspaceId: string, entryId: string): Promise<LedgerEntryView | null> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${ENTRY} FROM ${LEDGER_ENTRIES.name} WHERE ${l.workspaceId} = $1 AND ${l.id} = $2`,
      [workspaceId, entryId],
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  async lastCreditAt(workspaceId: string): Promise<string | null> {
    const rows: Array<{ position_at: string }> = await this.tx.manager.query(
      `SELECT ${POSITION_AT} AS position_at FROM ${LEDGER_ENTRIES.name}
        WHERE ${l.workspaceId} = $1 AND ${l.kind} = 'credit' ORDER BY ${l.createdAt} DESC, ${l.id} DESC LIMIT 1`,
      [workspaceId],
    );
    return rows[0]?.position_at ?? null;
  }

  private async insertEntry(entry: LedgerEntryRecord): Promise<LedgerEntryView> {
    const { sql, params } = LEDGER_ENTRIES.insert(entry, `RETURNING ${ENTRY}`);
    const [row]: Array<Record<string, unknown>> = await this.tx.manager.query(sql, params);
    return toView(row);
  }

  /**
   * Creates the wallet on first use and locks its row until the transaction ends: the row lock
   * serialises every change of one workspace's balance. Returns the balance before the change.
   */
  private async lockWallet(workspaceId: string, currency: string): Promise<number> {
    const m = this.tx.manager;
    // balance_minor and updated_at take their defaults (0, now()).
    const create = WALLETS.insert({ workspaceId, currency }, `ON CONFLICT (${w.workspaceId}) DO NOTHING`, ['workspaceId', 'currency']);
    await m.query(create.sql, create.params);
    const [row]: Array<Record<string, unknown>> = await m.query(
      `SELECT ${w.balanceMinor} FROM ${WALLETS.name} WHERE ${w.workspaceId} = $1 FOR UPDATE`,
      [workspaceId],
    );
    return WALLETS.fromRow(row, ['balanceMinor']).balanceMinor;
  }

  private async addToBalance(workspaceId: string, deltaMinor: number): Promise<number> {
    // TypeORM answers an UPDATE with [rows, affectedCount], not with the rows alone.
    const [[wallet]]: [Array<Record<string, unknown>>, number] = await this.tx.manager.query(
      `UPDATE ${WALLETS.name} SET ${w.balanceMinor} = ${w.balanceMinor} + $2, ${w.updatedAt} = now()
        WHERE ${w.workspaceId} = $1 RETURNING ${w.balanceMinor}`,
      [workspaceId, deltaMinor],
    );
    return WALLETS.fromRow(wallet, ['balanceMinor']).balanceMinor;
  }
}
