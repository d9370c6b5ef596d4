import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 18, items 4–6: documents and their chunks (full-text searchable), knowledge bases,
 * chatbots with their sessions, dictionaries (decisions.md 39.8).
 */
export class Knowledge1763700011600 implements MigrationInterface {
  name = 'Knowledge1763700011600';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE knowledge_documents (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        file_name text NOT NULL,
        type text NOT NULL CHECK (type IN ('pdf','txt','md','docx')),
        size_bytes bigint,
        external_id text,
        status text NOT NULL CHECK (status IN ('AWAITING_UPLOAD','UPLOADED','PROCESSING','READY','FAILED')),
        chunk_count int NOT NULL DEFAULT 0,
        error text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX knowledge_documents_workspace_idx ON knowledge_documents (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE knowledge_chunks (
        document_id uuid NOT NULL REFERENCES knowledge_documents(id) ON DELETE CASCADE,
        seq int NOT NULL,
        workspace_id uuid NOT NULL,
        content text NOT NULL,
        search tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
        PRIMARY KEY (document_id, seq)
      )`);
    await q.query(`CREATE INDEX knowledge_chunks_search_idx ON knowledge_chunks USING gin (search)`);
    await q.query(`
      CREATE TABLE knowledge_bases (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        description text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX knowledge_bases_workspace_idx ON knowledge_bases (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE knowledge_base_documents (
        knowledge_base_id uuid NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
        document_id uuid NOT NULL REFERENCES knowledge_documents(id) ON DELETE CASCADE,
        added_at timestamptz NOT NULL,
        PRIMARY KEY (knowledge_base_id, document_id)
      )`);
    await q.query(`CREATE INDEX knowledge_base_documents_document_idx ON knowledge_base_documents (document_id)`);
    await q.query(`
      CREATE TABLE chatbots (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        instructions text,
        status text NOT NULL CHECK (status IN ('ACTIVE','DISABLED')),
        embed_key text NOT NULL UNIQUE,
        embed_key_version int NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX chatbots_workspace_idx ON chatbots (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE chatbot_knowledge_bases (
        chatbot_id uuid NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        knowledge_base_id uuid NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
        PRIMARY KEY (chatbot_id, knowledge_base_id)
      )`);
    await q.query(`CREATE INDEX chatbot_knowledge_bases_kb_idx ON chatbot_knowledge_bases (knowledge_base_id)`);
    await q.query(`
      CREATE TABLE chatbot_messages (
        id uuid PRIMARY KEY,
        chatbot_id uuid NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        session_id uuid NOT NULL,
        seq int NOT NULL,
        role text NOT NULL CHECK (role IN ('user','assistant')),
        content text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT chatbot_messages_session_seq_key UNIQUE (session_id, seq)
      )`);
    await q.query(`
      CREATE TABLE dictionaries (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('pronunciation','key_terms')),
        entries jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX dictionaries_workspace_idx ON dictionaries (workspace_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['dictionaries', 'chatbot_messages', 'chatbot_knowledge_bases', 'chatbots', 'knowledge_base_documents', 'knowledge_bases', 'knowledge_chunks', 'knowledge_documents']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
