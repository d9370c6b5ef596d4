import { ContactStatus } from '../domain/contact-state-machine';

/**
 * `<column> IN ($i, …)` with one parameter per status, appended to `params`: for reads and claims
 * that filter contacts by the statuses of a CONTACT_TRANSITIONS entry. PostgreSQL plans a
 * one-element list as `= $i`, which keeps the ordered (campaign_id, status, seq) index scan and
 * the partial indexes on one status; `status = ANY($n::text[])` on PostgreSQL 15 falls back to
 * scanning every contact of the campaign (34 ms instead of 0.1 ms per claim at 100,000 contacts,
 * 95% of them done). UPDATEs of rows found by id use `= ANY($n::text[])`.
 */
export function statusIn(column: string, statuses: readonly ContactStatus[], params: unknown[]): string {
  if (statuses.length === 0) throw new Error('statusIn needs at least one status');
  const marks = statuses.map((status) => {
    params.push(status);
    return `$${params.length}::text`;
  });
  return `${column} IN (${marks.join(', ')})`;
}
