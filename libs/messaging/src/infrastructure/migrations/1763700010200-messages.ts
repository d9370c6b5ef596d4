import { MigrationInterface, QueryRunner } from 'typeorm';

/** Messages sent and received (issue 12, decisions.md 30.12) and the provider events applied to them (30.14). */
export class Messages1763700010200 implements MigrationInterface {
  name = 'Messages1763700010200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        channel text NOT NULL CHECK (channel IN ('WHATSAPP','EMAIL')),
        direction text NOT NULL CHECK (direction IN ('OUTBOUND','INBOUND')),
        status text NOT NULL CHECK (status IN ('QUEUED','SENT','DELIVERED','READ','FAILED','RECEIVED')),
        sender_id uuid NOT NULL,
        template_id uuid NULL,
        address text NOT NULL,
        body text NOT NULL,
        subject text NULL,
        content jsonb NULL,
        idempotency_key text NULL,
        provider text NOT NULL,
        provider_message_id text NULL,
        in_reply_to_id uuid NULL,
        failure_reason text NULL,
        send_started_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz NULL,
        delivered_at timestamptz NULL,
        read_at timestamptz NULL,
        failed_at timestamptz NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((direction = 'INBOUND') = (status = 'RECEIVED'))
      )`);
    await q.query(`CREATE UNIQUE INDEX messages_workspace_key_key ON messages (workspace_id, channel, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX messages_provider_message_key ON messages (channel, provider, provider_message_id) WHERE provider_message_id IS NOT NULL`);
    await q.query(`CREATE INDEX messages_workspace_channel_created_idx ON messages (workspace_id, channel, created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE message_events (
        provider text NOT NULL,
        event_id text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, event_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE message_events`);
    await q.query(`DROP TABLE messages`);
  }
}
