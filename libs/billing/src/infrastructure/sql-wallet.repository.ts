import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { timeOrderedUuid } from '@outreach/core';
import { TransactionHost } from '@outreach/platform';
import { DebitManyResult, LedgerEntryView, LedgerPageEntry, LedgerQuery, WalletCredit, WalletDebit, WalletRepository } from '../application/wallet.ports';
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
    const id = timeOrderedUuid();
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

  /**
   * A batch of one workspace's debits, in ONE statement when none of it was debited before
   * (decisions.md 47.11, 16.38): the wallet changes once by the batch's sum (creating it on first
   * use; the row lock taken here is held to the caller's commit, as in `debit`), and the ledger rows
   * go in with the balance each left, arbitrated by the unique (workspace, debit kind, reference)
   * index — a reference debited before, or by a racing transaction that committed first, is
   * skipped. Ids ascend, so the ledger's (created_at, id) order is the order the balances chain in.
   * When the index skipped a row (a replay: rare), a second statement gives the wallet back what the
   * skipped rows took and writes the rows that went in their balances again. Both statements are in
   * the caller's transaction, so the over-debit between them is never visible. No look-up of earlier
   * debits precedes the insert: a look-up is planned from statistics, and with statistics older
   * than the workspace's ledger Postgres answered it from the workspace's other index, reading every
   * debit of the workspace for each reference of the batch.
   */
  async debitMany(inputs: readonly WalletDebit[]): Promise<DebitManyResult[]> {
    if (inputs.length === 0) return [];
    if (inputs.length === 1) {
      const { replayed, balanceMinor } = await this.debit(inputs[0]);
      return [{ replayed, balanceMinor }];
    }
    const workspaceId = inputs[0].workspaceId;
    if (inputs.some((input) => input.workspaceId !== workspaceId)) throw new Error('debitMany: every debit must be of one workspace');
    if (new Set(inputs.map((input) => `${input.debitKind}\u0000${input.reference}`)).size !== inputs.length) {
      throw new Error('debitMany: a reference is named twice');
    }
    const ids = inputs.map(() => timeOrderedUuid()).sort();
    const rows = inputs.map((input, i) => debitRow(input, ids[i]));
    const column = <K extends keyof LedgerEntryRecord>(key: K) => rows.map((row) => LEDGER_ENTRIES.param(key, row[key]));
    const [result]: Array<{ ids: string[]; balance: string }> = await this.tx.manager.query(
      `WITH t AS (
         SELECT * FROM unnest($2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::uuid[])
           AS t(id, debit_kind, amount_minor, currency, reference, description, created_at, campaign_id)
       ), w AS (
         INSERT INTO ${WALLETS.name} (${w.workspaceId}, ${w.currency}, ${w.balanceMinor})
         SELECT $1, $10, -COALESCE(sum(amount_minor), 0)::bigint FROM t
         ON CONFLICT (${w.workspaceId}) DO UPDATE SET ${w.balanceMinor} = ${WALLETS.name}.${w.balanceMinor} + EXCLUDED.${w.balanceMinor}, ${w.updatedAt} = now()
         RETURNING ${w.balanceMinor}
       ), ins AS (
         INSERT INTO ${LEDGER_ENTRIES.name} (${l.id}, ${l.workspaceId}, ${l.kind}, ${l.debitKind}, ${l.amountMinor}, ${l.balanceAfterMinor},
                                             ${l.currency}, ${l.reference}, ${l.description}, ${l.createdAt}, ${l.campaignId})
         SELECT t.id, $1, 'debit', t.debit_kind, t.amount_minor,
                w.${w.balanceMinor} + COALESCE(sum(t.amount_minor) OVER (ORDER BY t.id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0),
                t.currency, t.reference, t.description, t.created_at, t.campaign_id
           FROM t CROSS JOIN w
         ${DEBIT_ONCE}
         RETURNING ${l.id}
       )
       SELECT COALESCE(array_agg(ins.${l.id}::text), '{}') AS ids, (SELECT ${w.balanceMinor} FROM w)::text AS balance FROM ins`,
      [
        workspaceId,
        ids,
        column('debitKind'),
        column('amountMinor'),
        column('currency'),
        column('reference'),
        column('description'),
        column('createdAt'),
        column('campaignId'),
        inputs[0].currency,
      ],
    );
    const inserted = new Set(result.ids);
    let balanceMinor = Number(result.balance);
    if (inserted.size < ids.length) balanceMinor = await this.takeBackReplays(workspaceId, rows, inserted);
    return ids.map((id) => ({ replayed: !inserted.has(id), balanceMinor }));
  }

  /**
   * After a batch whose insert skipped rows already debited: the wallet gets their amounts back,
   * and each row the batch wrote gets the balance it left (the final balance plus the amounts of
   * the batch's later rows). Answers the balance.
   */
  private async takeBackReplays(workspaceId: string, rows: readonly LedgerEntryRecord[], inserted: ReadonlySet<string>): Promise<number> {
    const skipped = rows.filter((row) => !inserted.has(row.id)).reduce((sum, row) => sum + row.amountMinor, 0);
    const [result]: Array<{ balance: string }> = await this.tx.manager.query(
      `WITH w AS (
         UPDATE ${WALLETS.name} SET ${w.balanceMinor} = ${w.balanceMinor} + $2::bigint, ${w.updatedAt} = now()
          WHERE ${w.workspaceId} = $1
         RETURNING ${w.balanceMinor}
       ), written AS (
         SELECT ${l.id} AS id, COALESCE(sum(${l.amountMinor}) OVER (ORDER BY ${l.id} ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0) AS later
           FROM ${LEDGER_ENTRIES.name} WHERE ${l.id} = ANY($3::uuid[])
       ), fixed AS (
         -- A data-modifying WITH runs whether or not the outer SELECT reads it.
         UPDATE ${LEDGER_ENTRIES.name} e SET ${l.balanceAfterMinor} = w.${w.balanceMinor} + written.later
           FROM written CROSS JOIN w
          WHERE e.${l.id} = written.id
       )
       SELECT ${w.balanceMinor}::text AS balance FROM w`,
      [workspaceId, skipped, [...inserted]],
    );
    return Number(result.balance);
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
