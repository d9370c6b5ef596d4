import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sequences and live actions (decisions.md 35): how long the contact's last call talked (finish-
 * interrupted finds the calls cut short by it), how many follow-up calls and churn re-contacts it
 * has had in this run, and where a referred contact came from (its depth in the referral chain and
 * the contact that named it).
 */
export class ContactSequences1763700011200 implements MigrationInterface {
  name = 'ContactSequences1763700011200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE campaign_contacts
        ADD COLUMN last_talk_ms integer NULL,
        ADD COLUMN followups integer NOT NULL DEFAULT 0,
        ADD COLUMN churn_rounds integer NOT NULL DEFAULT 0,
        ADD COLUMN referral_depth integer NOT NULL DEFAULT 0,
        ADD COLUMN referred_by uuid NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE campaign_contacts DROP COLUMN last_talk_ms, DROP COLUMN followups, DROP COLUMN churn_rounds, DROP COLUMN referral_depth, DROP COLUMN referred_by`,
    );
  }
}
