import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 18 item 4: an embedding per chunk when KNOWLEDGE_EMBEDDINGS is on (decisions.md 39.5); null otherwise. */
export class KnowledgeChunkEmbeddings1763700011620 implements MigrationInterface {
  name = 'KnowledgeChunkEmbeddings1763700011620';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE knowledge_chunks ADD COLUMN embedding real[]`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE knowledge_chunks DROP COLUMN embedding`);
  }
}
