import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alternate numbers are dialled (decisions.md 16.19): which of a contact's numbers is being dialled
 * (0 the primary, n the n-th alternate), how many attempts the contact had made before it, and
 * the number on which a person answered.
 */
export class ContactAlternateNumbers1763700008100 implements MigrationInterface {
  name = 'ContactAlternateNumbers1763700008100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE campaign_contacts
        ADD COLUMN phone_index integer NOT NULL DEFAULT 0,
        ADD COLUMN phone_first_attempt integer NOT NULL DEFAULT 0,
        ADD COLUMN connected_phone text NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaign_contacts DROP COLUMN phone_index, DROP COLUMN phone_first_attempt, DROP COLUMN connected_phone`);
  }
}
