import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inbound routing (issue 15, item 3; decisions.md 36.3): an inbound call finds the RUNNING INBOUND
 * campaign attached to the number dialled, so the attachments are looked up by number too.
 */
export class InboundRouting1763700011310 implements MigrationInterface {
  name = 'InboundRouting1763700011310';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX campaign_phone_numbers_number_idx ON campaign_phone_numbers (phone_number_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX campaign_phone_numbers_number_idx`);
  }
}
