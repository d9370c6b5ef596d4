import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why a PAUSED campaign is paused (decisions.md 12.13): `user`, or the service's reason; and when
 * it last went RUNNING, from which the circuit breaker counts (16.26).
 */
export class CampaignPauseReason1763700009300 implements MigrationInterface {
  name = 'CampaignPauseReason1763700009300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN pause_reason text NULL, ADD COLUMN running_since timestamptz NULL`);
    await q.query(`UPDATE campaigns SET running_since = started_at WHERE status = 'RUNNING'`);
    // Campaigns paused before the column existed were paused by a user or by the service; which one is not known.
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns DROP COLUMN pause_reason, DROP COLUMN running_since`);
  }
}
