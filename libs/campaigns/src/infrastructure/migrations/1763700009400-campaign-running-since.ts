import { MigrationInterface, QueryRunner } from 'typeorm';

/** When a campaign last went RUNNING (start, resume, restart): the circuit breaker counts from there (decisions.md 16.26). */
export class CampaignRunningSince1763700009400 implements MigrationInterface {
  name = 'CampaignRunningSince1763700009400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN IF NOT EXISTS running_since timestamptz NULL`);
    await q.query(`UPDATE campaigns SET running_since = started_at WHERE status = 'RUNNING'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns DROP COLUMN running_since`);
  }
}
