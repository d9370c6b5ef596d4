import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import type { DebitKind } from '../domain/money';
import { LedgerEntryView, LedgerPageEntry, LedgerQuery, WalletRepository } from '../application/wallet.ports';

type LedgerRow = {
  id: string;
  workspace_id: string;
  kind: 'credit' | 'debit';
  debit_kind: DebitKind | null;
  amount_minor: string;
  balance_after_minor: string;
  currency: string;
  reference: string | null;
  description: string | null;
  created_at: Date;
};

/** created_at to the microsecond, in UTC: the exact keyset position of a row. */
const POSITION_AT = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function toView(r: LedgerRow): LedgerEntryView {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    kind: r.kind,
    debitKind: r.debit_kind ?? null,
    amountMinor: Number(r.amount_minor),
    balanceAfterMinor: Number(r.balance_after_minor),
    currency: r.currency,
    reference: r.reference,
    description: r.description,
    createdAt: r.created_at.toISOString(),
  };
}

@Injectable()
export class TypeormWalletRepository extends WalletRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async credit(input: {
    workspaceId: string;
    amountMinor: number;
    currency: string;
    reference: string | null;
    description: string | null;
    at: Date;
    entryId?: string;
  }): Promise<{ entry: LedgerEntryView; replayed: boolean }> {
    const m = this.tx.manager;
    await this.lockWallet(input.workspaceId, input.currency);
    if (input.reference !== null) {
      const existing: LedgerRow[] = await m.query(
        `SELECT * FROM ledger_entries WHERE workspace_id = $1 AND kind = 'credit' AND reference = $2`,
        [input.workspaceId, input.reference],
      );
      if (existing[0]) return { entry: toView(existing[0]), replayed: true };
    }
    const balanceAfter = await this.addToBalance(input.workspaceId, input.amountMinor);
    const [entry]: LedgerRow[] = await m.query(
      `INSERT INTO ledger_entries (id, workspace_id, kind, amount_minor, balance_after_minor, currency, reference, description, created_at)
       VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, 'credit', $3, $4, $5, $6, $7, $8) RETURNING *`,
      [input.entryId ?? null, input.workspaceId, input.amountMinor, balanceAfter, input.currency, input.reference, input.description, input.at],
    );
    return { entry: toView(entry), replayed: false };
  }

  async debit(input: {
    workspaceId: string;
    amountMinor: number;
    currency: string;
    debitKind: DebitKind;
    reference: string;
    description: string;
    at: Date;
  }): Promise<{ entry: LedgerEntryView; replayed: boolean; balanceMinor: number }> {
    const m = this.tx.manager;
    const current = await this.lockWallet(input.workspaceId, input.currency);
    // Under the wallet lock, the look-up and the insert cannot interleave with another debit.
    const existing: LedgerRow[] = await m.query(
      `SELECT * FROM ledger_entries WHERE workspace_id = $1 AND kind = 'debit' AND debit_kind = $2 AND reference = $3`,
      [input.workspaceId, input.debitKind, input.reference],
    );
    if (existing[0]) return { entry: toView(existing[0]), replayed: true, balanceMinor: current };
    const balanceAfter = await this.addToBalance(input.workspaceId, -input.amountMinor);
    const [entry]: LedgerRow[] = await m.query(
      `INSERT INTO ledger_entries (workspace_id, kind, debit_kind, amount_minor, balance_after_minor, currency, reference, description, created_at)
       VALUES ($1, 'debit', $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [input.workspaceId, input.debitKind, input.amountMinor, balanceAfter, input.currency, input.reference, input.description, input.at],
    );
    return { entry: toView(entry), replayed: false, balanceMinor: balanceAfter };
  }

  async balance(workspaceId: string): Promise<{ balanceMinor: number; currency: string | null }> {
    const rows: Array<{ balance_minor: string; currency: string }> = await this.tx.manager.query(
      `SELECT balance_minor, currency FROM wallets WHERE workspace_id = $1`,
      [workspaceId],
    );
    return rows[0] ? { balanceMinor: Number(rows[0].balance_minor), currency: rows[0].currency } : { balanceMinor: 0, currency: null };
  }

  async ledgerPage(query: LedgerQuery): Promise<LedgerPageEntry[]> {
    const params: unknown[] = [query.workspaceId];
    const where = ['workspace_id = $1'];
    if (query.kind) where.push(`kind = $${params.push(query.kind)}`);
    if (query.from) where.push(`created_at >= $${params.push(query.from)}::timestamptz`);
    if (query.to) where.push(`created_at < $${params.push(query.to)}::timestamptz`);
    if (query.after) {
      const at = params.push(query.after.createdAt);
      const id = params.push(query.after.id);
      where.push(`(created_at, id) < ($${at}::timestamptz, $${id}::uuid)`);
    }
    const rows: Array<LedgerRow & { position_at: string }> = await this.tx.manager.query(
      `SELECT *, ${POSITION_AT} AS position_at FROM ledger_entries
        WHERE ${where.join(' AND ')}
        ORDER BY created_at DESC, id DESC
        LIMIT $${params.push(query.limit)}`,
      params,
    );
    return rows.map((r) => ({ ...toView(r), positionAt: r.position_at }));
  }

  async findEntry(workspaceId: string, entryId: string): Promise<LedgerEntryView | null> {
    const rows: LedgerRow[] = await this.tx.manager.query(`SELECT * FROM ledger_entries WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      entryId,
    ]);
    return rows[0] ? toView(rows[0]) : null;
  }

  async lastCreditAt(workspaceId: string): Promise<string | null> {
    const rows: Array<{ position_at: string }> = await this.tx.manager.query(
      `SELECT ${POSITION_AT} AS position_at FROM ledger_entries
        WHERE workspace_id = $1 AND kind = 'credit' ORDER BY created_at DESC, id DESC LIMIT 1`,
      [workspaceId],
    );
    return rows[0]?.position_at ?? null;
  }

  /**
   * Creates the wallet on first use and locks its row until the transaction ends: the row lock
   * serialises every change of one workspace's balance. Returns the balance before the change.
   */
  private async lockWallet(workspaceId: string, currency: string): Promise<number> {
    const m = this.tx.manager;
    await m.query(
      `INSERT INTO wallets (workspace_id, balance_minor, currency) VALUES ($1, 0, $2)
       ON CONFLICT (workspace_id) DO NOTHING`,
      [workspaceId, currency],
    );
    const [row]: Array<{ balance_minor: string }> = await m.query(
      `SELECT balance_minor FROM wallets WHERE workspace_id = $1 FOR UPDATE`,
      [workspaceId],
    );
    return Number(row.balance_minor);
  }

  private async addToBalance(workspaceId: string, deltaMinor: number): Promise<number> {
    // TypeORM answers an UPDATE with [rows, affectedCount], not with the rows alone.
    const [[wallet]]: [Array<{ balance_minor: string }>, number] = await this.tx.manager.query(
      `UPDATE wallets SET balance_minor = balance_minor + $2, updated_at = now()
        WHERE workspace_id = $1 RETURNING balance_minor`,
      [workspaceId, deltaMinor],
    );
    return Number(wallet.balance_minor);
  }
}
