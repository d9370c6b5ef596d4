import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { LedgerEntryView, WalletRepository } from '../application/wallet.ports';

type LedgerRow = {
  id: string;
  workspace_id: string;
  kind: 'credit' | 'debit';
  amount_minor: string;
  balance_after_minor: string;
  currency: string;
  reference: string | null;
  description: string | null;
  created_at: Date;
};

function toView(r: LedgerRow): LedgerEntryView {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    kind: r.kind,
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
  }): Promise<{ entry: LedgerEntryView; replayed: boolean }> {
    const m = this.tx.manager;
    // The wallet row is the lock that serialises every change of one workspace's balance.
    await m.query(
      `INSERT INTO wallets (workspace_id, balance_minor, currency) VALUES ($1, 0, $2)
       ON CONFLICT (workspace_id) DO NOTHING`,
      [input.workspaceId, input.currency],
    );
    await m.query(`SELECT 1 FROM wallets WHERE workspace_id = $1 FOR UPDATE`, [input.workspaceId]);
    if (input.reference !== null) {
      const existing: LedgerRow[] = await m.query(
        `SELECT * FROM ledger_entries WHERE workspace_id = $1 AND kind = 'credit' AND reference = $2`,
        [input.workspaceId, input.reference],
      );
      if (existing[0]) return { entry: toView(existing[0]), replayed: true };
    }
    // TypeORM answers an UPDATE with [rows, affectedCount], not with the rows alone.
    const [[wallet]]: [Array<{ balance_minor: string }>, number] = await m.query(
      `UPDATE wallets SET balance_minor = balance_minor + $2, updated_at = now()
        WHERE workspace_id = $1 RETURNING balance_minor`,
      [input.workspaceId, input.amountMinor],
    );
    const [entry]: LedgerRow[] = await m.query(
      `INSERT INTO ledger_entries (workspace_id, kind, amount_minor, balance_after_minor, currency, reference, description)
       VALUES ($1, 'credit', $2, $3, $4, $5, $6) RETURNING *`,
      [input.workspaceId, input.amountMinor, wallet.balance_minor, input.currency, input.reference, input.description],
    );
    return { entry: toView(entry), replayed: false };
  }

  async balance(workspaceId: string): Promise<{ balanceMinor: number; currency: string | null }> {
    const rows: Array<{ balance_minor: string; currency: string }> = await this.tx.manager.query(
      `SELECT balance_minor, currency FROM wallets WHERE workspace_id = $1`,
      [workspaceId],
    );
    return rows[0] ? { balanceMinor: Number(rows[0].balance_minor), currency: rows[0].currency } : { balanceMinor: 0, currency: null };
  }
}
