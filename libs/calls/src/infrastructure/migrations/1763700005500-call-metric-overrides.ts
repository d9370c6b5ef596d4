import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operator overrides of evaluation metrics, beside the analysis's own `evaluation`:
 * { "<metric key>": { "value", "originalValue", "overriddenAt" } }.
 */
export class CallMetricOverrides1763700005500 implements MigrationInterface {
  name = 'CallMetricOverrides1763700005500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls ADD COLUMN metric_overrides jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls DROP COLUMN metric_overrides`);
  }
}
