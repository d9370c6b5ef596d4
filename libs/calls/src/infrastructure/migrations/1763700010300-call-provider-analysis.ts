import { MigrationInterface, QueryRunner } from 'typeorm';

/** The voice provider's own post-call analysis, as it sent it (decisions.md 16.28); null when it has none. */
export class CallProviderAnalysis1763700010300 implements MigrationInterface {
  name = 'CallProviderAnalysis1763700010300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls ADD COLUMN IF NOT EXISTS provider_analysis jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls DROP COLUMN provider_analysis`);
  }
}
