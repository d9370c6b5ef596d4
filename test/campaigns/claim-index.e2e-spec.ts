// The claim reads a campaign's PENDING contacts from their own index (decisions.md 47.14), whatever
// the statistics say: analyzed while every contact was PENDING, the planner used to read
// (campaign_id, seq) and filter on the status, walking every contact the campaign had already done
// on each claim (75 ms and 87,000 buffers half-way through 100,000 contacts in bench:messages).
import { createCampaign } from './campaign-helpers';
import { Seeded, TestApp } from '../support/test-app';

describe('the claim index', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
  });

  it('a claim half-way through a campaign analyzed when all were PENDING reads only the contacts still to claim', async () => {
    const campaign = await createCampaign(t, ws.key);
    await t.dataSource.query(
      `INSERT INTO campaign_contacts (campaign_id, workspace_id, phone)
       SELECT $1, $2, '+1650' || lpad(i::text, 7, '0') FROM generate_series(1, 6000) AS i`,
      [campaign.id, ws.workspaceId],
    );
    await t.dataSource.query(`ANALYZE campaign_contacts`); // every contact PENDING in the statistics
    // The first 4,500 by seq are done, and the statistics do not know it.
    await t.dataSource.query(
      `UPDATE campaign_contacts SET status = 'COMPLETED'
        WHERE id IN (SELECT id FROM campaign_contacts WHERE campaign_id = $1 ORDER BY seq LIMIT 4500)`,
      [campaign.id],
    );
    const [{ 'QUERY PLAN': [plan] }]: Array<{ 'QUERY PLAN': Array<{ Plan: Record<string, unknown> }> }> = await t.dataSource.query(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
       SELECT id FROM campaign_contacts
        WHERE campaign_id = $1 AND status IN ('PENDING') AND (last_attempt_at IS NULL OR last_attempt_at <= now())
        ORDER BY seq LIMIT 100 FOR UPDATE SKIP LOCKED`,
      [campaign.id],
    );
    const text = JSON.stringify(plan);
    expect(text).toContain('"Index Name":"campaign_contacts_pending_idx"');
    expect(plan.Plan['Actual Rows']).toBe(100);
    // The (campaign_id, seq) plan visits the 4,500 done contacts first: thousands of buffers.
    expect(plan.Plan['Shared Hit Blocks'] as number).toBeLessThan(500);
    // And the claim's order is still seq: the first PENDING contact is the 4,501st.
    const [first]: Array<{ phone: string }> = await t.dataSource.query(
      `SELECT phone FROM campaign_contacts WHERE campaign_id = $1 AND status IN ('PENDING') ORDER BY seq LIMIT 1`,
      [campaign.id],
    );
    expect(first.phone).toBe('+16500004501');
  });
});
