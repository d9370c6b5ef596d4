import { MigrationInterface, QueryRunner } from 'typeorm';

/** The engine's legs ask whether a message was answered (decisions.md 33): replies by the message they answer. */
export class MessageReplies1763700011010 implements MigrationInterface {
  name = 'MessageReplies1763700011010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX messages_in_reply_to_idx ON messages (in_reply_to_id) WHERE in_reply_to_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX messages_in_reply_to_idx`);
  }
}
