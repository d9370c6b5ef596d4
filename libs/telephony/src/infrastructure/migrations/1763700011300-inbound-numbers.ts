import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inbound numbers (issue 15, item 1; decisions.md 36): the INBOUND agent a workspace number is
 * assigned to (PUT /phone-numbers/{id}/inbound-agent). No foreign key: agents are another module's
 * table; the assignment is checked when it is made and again when an inbound campaign starts.
 */
export class InboundNumbers1763700011300 implements MigrationInterface {
  name = 'InboundNumbers1763700011300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE phone_numbers ADD COLUMN inbound_agent_id uuid NULL`);
    await q.query(`CREATE INDEX phone_numbers_inbound_agent_idx ON phone_numbers (workspace_id, inbound_agent_id) WHERE inbound_agent_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX phone_numbers_inbound_agent_idx`);
    await q.query(`ALTER TABLE phone_numbers DROP COLUMN inbound_agent_id`);
  }
}
