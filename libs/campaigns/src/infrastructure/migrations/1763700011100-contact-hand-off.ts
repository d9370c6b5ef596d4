import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The HAND_OFF contact status (decisions.md 34.4): an outreach rule handed the contact to a person.
 * The status CHECK is redefined with it (a later status means redefining it again with every
 * status of CONTACT_STATUSES).
 */
export class ContactHandOff1763700011100 implements MigrationInterface {
  name = 'ContactHandOff1763700011100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaign_contacts DROP CONSTRAINT campaign_contacts_status_check`);
    await q.query(
      `ALTER TABLE campaign_contacts ADD CONSTRAINT campaign_contacts_status_check
         CHECK (status IN ('PENDING','IN_PROGRESS','RETRY_SCHEDULED','COMPLETED','FAILED','DO_NOT_CALL','HAND_OFF'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaign_contacts DROP CONSTRAINT campaign_contacts_status_check`);
    await q.query(
      `ALTER TABLE campaign_contacts ADD CONSTRAINT campaign_contacts_status_check
         CHECK (status IN ('PENDING','IN_PROGRESS','RETRY_SCHEDULED','COMPLETED','FAILED','DO_NOT_CALL'))`,
    );
  }
}
