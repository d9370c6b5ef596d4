import { MigrationInterface, QueryRunner } from 'typeorm';

/** Inbound calls (issue 15, item 3; decisions.md 36.3): a call someone placed to one of our numbers is its own kind. */
export class InboundCalls1763700011320 implements MigrationInterface {
  name = 'InboundCalls1763700011320';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls DROP CONSTRAINT calls_kind_check`);
    await q.query(`ALTER TABLE calls ADD CONSTRAINT calls_kind_check CHECK (kind IN ('campaign','test','inbound'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM calls WHERE kind = 'inbound'`);
    await q.query(`ALTER TABLE calls DROP CONSTRAINT calls_kind_check`);
    await q.query(`ALTER TABLE calls ADD CONSTRAINT calls_kind_check CHECK (kind IN ('campaign','test'))`);
  }
}
