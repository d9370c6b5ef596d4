import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 5: debits (call, message, test_call) idempotent by (workspace, kind, reference),
 * recharges (an operator credit is a CREDITED recharge whose id is its ledger entry's id),
 * per-workspace tariff overrides.
 */
export class BillingDebits1763700003000 implements MigrationInterface {
  name = 'BillingDebits1763700003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries ADD COLUMN debit_kind text NULL`);
    await q.query(`
      ALTER TABLE ledger_entries
        ADD CONSTRAINT ledger_entries_debit_kind_check CHECK (
          (kind = 'credit' AND debit_kind IS NULL)
          OR (kind = 'debit' AND debit_kind IN ('call', 'message', 'test_call') AND reference IS NOT NULL)
        )`);
    // A debit may be 0 (an answered call of 0 ms keeps its audit row); a credit never.
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_amount_minor_check`);
    await q.query(`
      ALTER TABLE ledger_entries
        ADD CONSTRAINT ledger_entries_amount_minor_check CHECK (amount_minor > 0 OR (kind = 'debit' AND amount_minor = 0))`);
    await q.query(
      `CREATE UNIQUE INDEX ledger_entries_debit_reference_key ON ledger_entries (workspace_id, debit_kind, reference) WHERE kind = 'debit'`,
    );
    await q.query(`CREATE INDEX ledger_entries_workspace_kind_idx ON ledger_entries (workspace_id, kind, created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE recharges (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        status text NOT NULL CHECK (status IN ('PENDING', 'CREDITED')),
        amount_minor bigint NOT NULL CHECK (amount_minor > 0),
        currency char(3) NOT NULL,
        reference text NULL,
        description text NULL,
        created_at timestamptz NOT NULL,
        credited_at timestamptz NULL,
        CHECK ((status = 'CREDITED') = (credited_at IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX recharges_workspace_idx ON recharges (workspace_id, created_at DESC, id DESC)`);
    await q.query(`
      INSERT INTO recharges (id, workspace_id, status, amount_minor, currency, reference, description, created_at, credited_at)
      SELECT id, workspace_id, 'CREDITED', amount_minor, currency, reference, description, created_at, created_at
        FROM ledger_entries WHERE kind = 'credit'`);

    await q.query(`
      CREATE TABLE workspace_tariffs (
        workspace_id uuid PRIMARY KEY REFERENCES workspaces(id),
        voice_minute_minor bigint NULL CHECK (voice_minute_minor >= 0),
        message_minor bigint NULL CHECK (message_minor >= 0),
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE workspace_tariffs`);
    await q.query(`DROP TABLE recharges`);
    await q.query(`DROP INDEX ledger_entries_workspace_kind_idx`);
    await q.query(`DROP INDEX ledger_entries_debit_reference_key`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_amount_minor_check`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_amount_minor_check CHECK (amount_minor > 0)`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_debit_kind_check`);
    await q.query(`ALTER TABLE ledger_entries DROP COLUMN debit_kind`);
  }
}
