import { PhoneNumberAdministration } from '@outreach/telephony';
import { credit, expectError } from '../campaigns/campaign-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { ledger } from './call-fixtures';

/*
 * The operator's shared test number (SANDBOX_FROM_NUMBER) is unavailable once a workspace registered
 * it as its own number (decisions.md 36.7): POST /calls/test without fromPhoneNumberId answers 503
 * sandbox_from_number_unavailable, records nothing and bills nothing; with the workspace's own number
 * the call is placed.
 */
const SANDBOX_FROM = '+14155550100';

describe('POST /calls/test when the shared test number is taken', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    process.env.SANDBOX_FROM_NUMBER = SANDBOX_FROM;
    try {
      t = await TestApp.create();
    } finally {
      delete process.env.SANDBOX_FROM_NUMBER;
    }
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
    await credit(t, ws.workspaceId, 10_000);
  });

  it('503 sandbox_from_number_unavailable, nothing recorded or billed', async () => {
    const agentId = (await createActiveAgent(t, ws.key)).id;
    const other = await t.seed();
    await t.get(PhoneNumberAdministration).add({ workspaceId: other.workspaceId, e164: SANDBOX_FROM });
    const send = (body: Record<string, unknown>, key: string) => t.http.post('/calls/test').set(bearer(ws.key)).set('Idempotency-Key', key).send(body);

    expectError(await send({ agentId, toNumber: '+14155550107' }, 'shared-1'), 503, 'sandbox_from_number_unavailable');
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM calls WHERE workspace_id = $1`, [ws.workspaceId]);
    expect(n).toBe(0);
    expect((await ledger(t, ws.workspaceId)).filter((e) => e.kind !== 'credit')).toHaveLength(0);

    const own = await t.get(PhoneNumberAdministration).add({ workspaceId: ws.workspaceId, e164: '+14155550142' });
    const placed = await send({ agentId, toNumber: '+14155550107', fromPhoneNumberId: own.id }, 'shared-2');
    expect(placed.status).toBe(201);
  });
});
