import { MigrationInterface, QueryRunner } from 'typeorm';

/** An unquoted WhatsApp reply answers the sender's latest message to its author (decisions.md 33.20). */
export class UnquotedReplies1763700011900 implements MigrationInterface {
  name = 'UnquotedReplies1763700011900';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX messages_sender_address_idx ON messages (sender_id, address, created_at DESC) WHERE direction = 'OUTBOUND'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX messages_sender_address_idx`);
  }
}
