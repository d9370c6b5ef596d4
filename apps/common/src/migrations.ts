import { PLATFORM_MIGRATIONS } from '@outreach/platform';
import { WORKSPACES_MIGRATIONS } from '@outreach/workspaces';
import { BILLING_MIGRATIONS } from '@outreach/billing';
import { AGENTS_MIGRATIONS } from '@outreach/agents';
import { FUNCTIONS_MIGRATIONS } from '@outreach/functions';
import { TELEPHONY_MIGRATIONS } from '@outreach/telephony';
import { CAMPAIGNS_MIGRATIONS } from '@outreach/campaigns';
import { DNC_MIGRATIONS } from '@outreach/dnc';
import { RESULTS_MIGRATIONS } from '@outreach/results';
import { CALLS_MIGRATIONS } from '@outreach/calls';

/**
 * Every migration of the service. Each module owns its tables and ships its migrations; this
 * list (ordered by the timestamp in the class name) is what api, worker, cli and tests apply.
 */
export const ALL_MIGRATIONS = [...PLATFORM_MIGRATIONS, ...WORKSPACES_MIGRATIONS, ...BILLING_MIGRATIONS, ...AGENTS_MIGRATIONS, ...FUNCTIONS_MIGRATIONS, ...TELEPHONY_MIGRATIONS, ...CAMPAIGNS_MIGRATIONS, ...DNC_MIGRATIONS, ...CALLS_MIGRATIONS, ...RESULTS_MIGRATIONS].sort((a, b) =>
  timestampOf(a) - timestampOf(b),
);

function timestampOf(migration: Function): number {
  const match = /(\d{13})$/.exec(migration.name);
  if (!match) throw new Error(`migration ${migration.name} must end with a 13-digit timestamp`);
  return Number(match[1]);
}
