import { MigrationInterface, QueryRunner } from 'typeorm';

export class BillingWallets1763700000200 implements MigrationInterface {
  name = 'BillingWallets1763700000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wallets (
        workspace_id uuid PRIMARY KEY REFERENCES workspaces(id),
        balance_minor bigint NOT NULL DEFAULT 0,
        currency char(3) NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE ledger_entries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        kind text NOT NULL CHECK (kind IN ('credit','debit')),
        amount_minor bigint NOT NULL CHECK (amount_minor > 0),
        balance_after_minor bigint NOT NULL,
        currency char(3) NOT NULL,
        reference text NULL,
        description text NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ledger_entries_workspace_idx ON ledger_entries (workspace_id, created_at DESC, id DESC)`);
    await q.query(
      `CREATE UNIQUE INDEX ledger_entries_credit_reference_key ON ledger_entries (workspace_id, reference) WHERE kind = 'credit' AND reference IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ledger_entries`);
    await q.query(`DROP TABLE wallets`);
  }
}
