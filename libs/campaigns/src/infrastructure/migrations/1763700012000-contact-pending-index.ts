import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The claim's own index (decisions.md 47.14): a campaign's PENDING contacts in seq order, the status
 * a first claim takes from (CONTACT_TRANSITIONS.claim.from). With statistics that call every
 * contact PENDING (a campaign just imported and analyzed), the planner read the claim from
 * (campaign_id, seq) and filtered on the status, so each claim walked every contact the campaign
 * had already done: 87,000 buffers and 75 ms per claim half-way through 100,000 contacts. Only the
 * contacts still to claim are in this index, and it is the cheapest plan whatever the statistics.
 */
export class ContactPendingIndex1763700012000 implements MigrationInterface {
  name = 'ContactPendingIndex1763700012000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX campaign_contacts_pending_idx ON campaign_contacts (campaign_id, seq) WHERE status = 'PENDING'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX campaign_contacts_pending_idx`);
  }
}
