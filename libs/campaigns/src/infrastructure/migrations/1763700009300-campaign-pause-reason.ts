import { MigrationInterface, QueryRunner } from 'typeorm';

/** Why a PAUSED campaign is paused (decisions.md 12.13): `user`, or the service's reason. */
export class CampaignPauseReason1763700009300 implements MigrationInterface {
  name = 'CampaignPauseReason1763700009300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN pause_reason text NULL`);
    // Campaigns paused before the column existed were paused by a user or by the service; which one is not known.
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns DROP COLUMN pause_reason`);
  }
}
