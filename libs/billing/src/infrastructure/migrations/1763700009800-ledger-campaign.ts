import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The campaign a debit paid for (issue 17, item 4: the campaign budget, decisions.md 29.1). Null on
 * credits, test calls and debits written before the column existed. The partial index answers a
 * campaign's spend with an index-only scan.
 */
export class LedgerCampaign1763700009800 implements MigrationInterface {
  name = 'LedgerCampaign1763700009800';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries ADD COLUMN campaign_id uuid NULL`);
    await q.query(
      `CREATE INDEX ledger_entries_campaign_debits_idx ON ledger_entries (campaign_id) INCLUDE (amount_minor) WHERE kind = 'debit' AND campaign_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ledger_entries_campaign_debits_idx`);
    await q.query(`ALTER TABLE ledger_entries DROP COLUMN campaign_id`);
  }
}
