import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 18 item 6: the dictionaries an agent uses (decisions.md 39.10). The agent id is kept without a
 * foreign key (agents belong to another module); a deleted dictionary leaves its links.
 */
export class KnowledgeAgentDictionaries1763700011610 implements MigrationInterface {
  name = 'KnowledgeAgentDictionaries1763700011610';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_dictionaries (
        agent_id uuid NOT NULL,
        dictionary_id uuid NOT NULL REFERENCES dictionaries(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        position int NOT NULL,
        PRIMARY KEY (agent_id, dictionary_id)
      )`);
    await q.query(`CREATE INDEX agent_dictionaries_dictionary_idx ON agent_dictionaries (dictionary_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_dictionaries`);
  }
}
