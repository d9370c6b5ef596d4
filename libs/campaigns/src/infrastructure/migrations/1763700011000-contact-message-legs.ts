import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The engine's message legs (decisions.md 33): which leg a contact's next attempt runs, the message
 * leg's counters (sends for undelivered retries, transient refusals of the current send), when the
 * leg first sent (the retry window and the reply window count from it), its outcome (results), and
 * the call a WhatsApp follow-up answers (its evaluation picks the template). Plus the per-day message
 * counter of dailyMessageCap beside the dial counter. Every column has a constant default or is
 * nullable: no table rewrite.
 */
export class ContactMessageLegs1763700011000 implements MigrationInterface {
  name = 'ContactMessageLegs1763700011000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaign_contacts
      ADD COLUMN leg text NULL,
      ADD COLUMN message_sends int NOT NULL DEFAULT 0,
      ADD COLUMN message_transient int NOT NULL DEFAULT 0,
      ADD COLUMN message_leg_at timestamptz NULL,
      ADD COLUMN message_outcome text NULL,
      ADD COLUMN followup_call_id uuid NULL`);
    await q.query(`ALTER TABLE campaign_daily_dials ADD COLUMN messages int NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaign_daily_dials DROP COLUMN messages`);
    await q.query(`ALTER TABLE campaign_contacts DROP COLUMN leg, DROP COLUMN message_sends, DROP COLUMN message_transient,
      DROP COLUMN message_leg_at, DROP COLUMN message_outcome, DROP COLUMN followup_call_id`);
  }
}
