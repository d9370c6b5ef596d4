import { CAMPAIGNS } from './persistence/campaign.table';
import { CAMPAIGN_CONTACT_COUNTS as K } from './persistence/campaign-contact-count.table';

/**
 * A campaign's contact count is kept in CONTACT_COUNT_SHARDS rows of campaign_contact_counts and
 * summed on read. A writer adds to the shard of its database connection (pg_backend_pid), so
 * concurrent lead pushes to one campaign rarely wait for each other, and one transaction only
 * ever locks one shard row (no lock-order deadlocks between batches).
 */
export const CONTACT_COUNT_SHARDS = 16;

/**
 * An INSERT … ON CONFLICT that adds `amount` (an SQL expression, evaluated once per use) to the
 * campaign's count; nothing is written when it is 0. For a data-modifying CTE.
 */
export function addToContactCount(campaignParam: string, amount: string): string {
  return `INSERT INTO ${K.name} AS k (${K.select(undefined, ['campaignId', 'shard', 'n'])})
          SELECT ${campaignParam}, (pg_backend_pid() % ${CONTACT_COUNT_SHARDS})::smallint, a.n FROM (SELECT (${amount})::int AS n) a WHERE a.n > 0
          ON CONFLICT (${K.c.campaignId}, ${K.c.shard}) DO UPDATE SET ${K.c.n} = k.${K.c.n} + EXCLUDED.${K.c.n}`;
}

/** The count of campaign `c` (an alias of campaigns in the surrounding query). */
export const CONTACT_COUNT_OF_C = `COALESCE((SELECT sum(k.${K.c.n}) FROM ${K.name} k WHERE k.${K.c.campaignId} = c.${CAMPAIGNS.c.id}), 0)::int`;
