import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A campaign's contact count moves from one column of the campaign row (every lead push and
 * import batch locked that row until commit, so pushes to one campaign ran one at a time) to
 * shard rows that are summed on read (see contact-count.sql.ts).
 */
export class CampaignContactCountShards1763700007100 implements MigrationInterface {
  name = 'CampaignContactCountShards1763700007100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE campaign_contact_counts (
        campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        shard smallint NOT NULL,
        n integer NOT NULL,
        PRIMARY KEY (campaign_id, shard)
      )`);
    await q.query(`INSERT INTO campaign_contact_counts (campaign_id, shard, n) SELECT id, 0, contact_count FROM campaigns WHERE contact_count <> 0`);
    await q.query(`ALTER TABLE campaigns DROP COLUMN contact_count`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN contact_count integer NOT NULL DEFAULT 0`);
    await q.query(
      `UPDATE campaigns c SET contact_count = k.n FROM (SELECT campaign_id, sum(n)::int AS n FROM campaign_contact_counts GROUP BY campaign_id) k
        WHERE k.campaign_id = c.id`,
    );
    await q.query(`DROP TABLE campaign_contact_counts`);
  }
}
