import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 18: campaign chat sessions and their messages, and speech-call transcript translations.
 * Campaigns and calls belong to other modules: their ids are kept without foreign keys (as export
 * jobs keep campaign ids), and every read is scoped by workspace.
 */
export class Assist1763700010110 implements MigrationInterface {
  name = 'Assist1763700010110';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE campaign_chat_sessions (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        campaign_id uuid NOT NULL,
        user_message_count int NOT NULL DEFAULT 0 CHECK (user_message_count >= 0),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX campaign_chat_sessions_campaign_idx ON campaign_chat_sessions (workspace_id, campaign_id)`);
    await q.query(`
      CREATE TABLE campaign_chat_messages (
        id uuid PRIMARY KEY,
        session_id uuid NOT NULL REFERENCES campaign_chat_sessions(id) ON DELETE CASCADE,
        seq int NOT NULL,
        role text NOT NULL CHECK (role IN ('user','assistant')),
        content text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT campaign_chat_messages_session_seq_key UNIQUE (session_id, seq)
      )`);
    await q.query(`
      CREATE TABLE speech_translations (
        call_id uuid NOT NULL,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        language text NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (call_id, language)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE speech_translations`);
    await q.query(`DROP TABLE campaign_chat_messages`);
    await q.query(`DROP TABLE campaign_chat_sessions`);
  }
}
