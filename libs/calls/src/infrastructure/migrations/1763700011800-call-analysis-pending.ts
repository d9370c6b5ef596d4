import { MigrationInterface, QueryRunner } from 'typeorm';

/** The analysis sweep's walk (decisions.md 37.17): calls whose analysis is still PENDING, by creation. */
export class CallAnalysisPending1763700011800 implements MigrationInterface {
  name = 'CallAnalysisPending1763700011800';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS calls_analysis_pending_idx ON calls (created_at) WHERE analysis_status = 'PENDING'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS calls_analysis_pending_idx`);
  }
}
