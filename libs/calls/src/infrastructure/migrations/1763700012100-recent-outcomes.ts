import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The circuit breaker's window (decisions.md 16.26, 16.35) as a function that walks
 * calls_campaign_created_idx newest first and stops at the window. Planned as a plain query, a
 * campaign whose statistics predate its calls (a new campaign, a stale ANALYZE) got a bitmap scan
 * of every call of the campaign and a sort, once per carrier failure: O(calls) each time. The
 * function's own `enable_bitmapscan = off` leaves the planner the ordered walk only.
 */
export class RecentOutcomes1763700012100 implements MigrationInterface {
  name = 'RecentOutcomes1763700012100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION calls_recent_outcomes(p_campaign uuid, p_since timestamptz, p_limit int, p_from text[])
        RETURNS SETOF text LANGUAGE sql STABLE SET enable_bitmapscan = off AS $$
          SELECT outcome FROM calls
           WHERE campaign_id = p_campaign AND created_at >= p_since AND outcome IS NOT NULL
             AND (p_from IS NULL OR from_number = ANY(p_from))
           ORDER BY created_at DESC LIMIT p_limit
        $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS calls_recent_outcomes(uuid, timestamptz, int, text[])`);
  }
}
