import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { LedgerEntryView, LedgerPageEntry, LedgerQuery, WalletCredit, WalletDebit, WalletRepository } from '../application/wallet.ports';
import { LEDGER_ENTRIES, LedgerEntryRecord } from './persistence/ledger-entry.table';
import { WALLETS } from './persistence/wallet.table';

const BALANCE_AND_CURRENCY = ['balanceMinor', 'currency'] as const;
const BALANCE_ONLY = ['balanceMinor'] as const;

const l = LEDGER_ENTRIES.c;
const w = WALLETS.c;
const ENTRY = LEDGER_ENTRIES.select();
/** created_at to the microsecond, in UTC: the exact keyset position of a row. */
const POSITION_AT = `to_char(${l.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A debit's row, its balance provisional (0) until the wallet's change gives it the real one. */
function debitRow(input: WalletDebit, id: string): LedgerEntryRecord {
  return {
    id,
    workspaceId: input.workspaceId,
    kind: 'debit',
    debitKind: input.debitKind,
    amountMinor: input.amountMinor,
    balanceAfterMinor: 0,
    currency: input.currency,
    reference: input.reference,
    description: input.description,
    createdAt: input.at,
    campaignId: input.campaignId ?? null,
  };
}

/** A (workspace, debit kind, reference) is debited once: the unique index arbitrates. */
const DEBIT_ONCE = `ON CONFLICT (${l.workspaceId}, ${l.debitKind}, ${l.reference}) WHERE ${l.kind} = 'debit' DO NOTHING`;

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

  /**
   * Two statements, and the wallet row is locked only by the second (decisions.md 44.2): the
   * ledger row is inserted first, arbitrated by the unique (workspace, debit kind, reference)
   * index — a racing duplicate waits for the first to commit and then inserts nothing (a replay);
   * then ONE statement subtracts the amount (creating the wallet on first use) and writes the
   * balance it left into the new row. So the row lock that serialises a workspace's balance is held
   * from that statement to the caller's commit, not across the look-up and the insert: every
   * caller debits last in its transaction (settlement, SendMessage). The balance chain stays exact
   * (each row's balance_after is taken under the lock). The row's provisional balance_after is
   * never visible: both statements are in the caller's transaction.
   */
  async debit(input: WalletDebit): Promise<{ entry: LedgerEntryView; replayed: boolean; balanceMinor: number }> {
    const m = this.tx.manager;
    const id = randomUUID();
    const { sql, params } = LEDGER_ENTRIES.insert(debitRow(input, id), `${DEBIT_ONCE} RETURNING 1 AS inserted`);
    const inserted: unknown[] = await m.query(sql, params);
    if (inserted.length === 0) {
      const existing: Array<Record<string, unknown>> = await m.query(
        `SELECT ${ENTRY} FROM ${LEDGER_ENTRIES.name}
          WHERE ${l.workspaceId} = $1 AND ${l.kind} = 'debit' AND ${l.debitKind} = $2 AND ${l.reference} = $3`,
        [input.workspaceId, input.debitKind, input.reference],
      );
      return { entry: toView(existing[0]), replayed: true, balanceMinor: (await this.balance(input.workspaceId)).balanceMinor };
    }
    // TypeORM answers an UPDATE with [rows, affectedCount].
    const [[row]]: [Array<Record<string, unknown>>, number] = await m.query(
      `WITH w AS (
         INSERT INTO ${WALLETS.name} (${w.workspaceId}, ${w.currency}, ${w.balanceMinor}) VALUES ($1, $2, -$3::bigint)
         ON CONFLICT (${w.workspaceId}) DO UPDATE SET ${w.balanceMinor} = ${WALLETS.name}.${w.balanceMinor} - $3::bigint, ${w.updatedAt} = now()
         RETURNING ${w.balanceMinor})
       UPDATE ${LEDGER_ENTRIES.name} SET ${l.balanceAfterMinor} = w.${w.balanceMinor} FROM w
        WHERE ${LEDGER_ENTRIES.name}.${l.id} = $4
       RETURNING ${LEDGER_ENTRIES.select(LEDGER_ENTRIES.name)}`,
      [input.workspaceId, input.currency, input.amountMinor, id],
    );
    const entry = toView(row);
    return { entry, replayed: false, balanceMinor: entry.balanceAfterMinor };
  }

  async debitMany(inputs: readonly WalletDebit[]): Promise<Array<{ replayed: boolean }>> {
    if (inputs.length === 0) return [];
    if (inputs.length === 1) return [{ replayed: (await this.debit(inputs[0])).replayed }];
    const workspaceId = inputs[0].workspaceId;
    if (inputs.some((input) => input.workspaceId !== workspaceId)) throw new Error('debitMany: every debit must be of one workspace');
    const m = this.tx.manager;
    // Ids in ascending order, so the ledger's (created_at, id) order is the order the balances chain in.
    const ids = inputs.map(() => randomUUID()).sort();
    const { sql, params } = LEDGER_ENTRIES.insertMany(
      inputs.map((input, i) => debitRow(input, ids[i])),
      `${DEBIT_ONCE} RETURNING ${l.id} AS id`,
    );
    const inserted = new Set((await m.query(sql, params) as Array<{ id: string }>).map((row) => row.id));
    const written = ids.map((id, i) => ({ id, amount: inputs[i].amountMinor })).filter((row) => inserted.has(row.id));
    if (written.length > 0) {
      // Each row's balance is the new balance plus what the rows after it subtracted.
      const total = written.reduce((sum, row) => sum + row.amount, 0);
      let before = 0;
      const after = written.map((row) => total - (before += row.amount));
      await m.query(
        `WITH w AS (
           INSERT INTO ${WALLETS.name} (${w.workspaceId}, ${w.currency}, ${w.balanceMinor}) VALUES ($1, $2, -$3::bigint)
           ON CONFLICT (${w.workspaceId}) DO UPDATE SET ${w.balanceMinor} = ${WALLETS.name}.${w.balanceMinor} - $3::bigint, ${w.updatedAt} = now()
           RETURNING ${w.balanceMinor})
         UPDATE ${LEDGER_ENTRIES.name} SET ${l.balanceAfterMinor} = w.${w.balanceMinor} + t.after
           FROM w, unnest($4::uuid[], $5::bigint[]) AS t(id, after)
          WHERE ${LEDGER_ENTRIES.name}.${l.id} = t.id`,
        [workspaceId, inputs[0].currency, total, written.map((row) => row.id), after],
      );
    }
    return ids.map((id) => ({ replayed: !inserted.has(id) }));
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
    return rows[0] ? WALLETS.fromRow(rows[0], BALANCE_AND_CURRENCY) : { balanceMinor: 0, currency: null };
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
    return WALLETS.fromRow(row, BALANCE_ONLY).balanceMinor;
  }

  private async addToBalance(workspaceId: string, deltaMinor: number): Promise<number> {
    // TypeORM answers an UPDATE with [rows, affectedCount], not with the rows alone.
    const [[wallet]]: [Array<Record<string, unknown>>, number] = await this.tx.manager.query(
      `UPDATE ${WALLETS.name} SET ${w.balanceMinor} = ${w.balanceMinor} + $2, ${w.updatedAt} = now()
        WHERE ${w.workspaceId} = $1 RETURNING ${w.balanceMinor}`,
      [workspaceId, deltaMinor],
    );
    return WALLETS.fromRow(wallet, BALANCE_ONLY).balanceMinor;
  }
}
