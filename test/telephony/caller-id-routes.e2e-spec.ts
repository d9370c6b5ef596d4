import { randomUUID } from 'node:crypto';
import { CALLER_ID_ROUTE_TTL_MS, PhoneNumberAdministration, TelephonyChange, TelephonyChanges, VoiceProvider } from '@outreach/telephony';
import { Seeded, TestApp } from '../support/test-app';

/*
 * The caller id's number and carrier account are cached per process (decisions.md 16.40): the
 * router no longer reads them before every call. Two Nest applications in this jest process stand
 * for two processes: they share nothing but Postgres and Redis. A change made through one (the
 * operator's PhoneNumberAdministration) reaches the other's next call through the Redis
 * announcement, well inside the cache's 1 s; a change written behind the service's back is seen
 * only when the entry expires.
 */
const TWILIO = { accountSid: 'AC0000000000000000000000000000000', authToken: 'token' };
const FROM = '+14155550131';

describe('caller-id routes: a carrier change reaches every process’s next call', () => {
  let operator: TestApp;
  let dialler: TestApp;
  let ws: Seeded;
  let calls = 0;
  const heard: TelephonyChange[] = [];

  beforeAll(async () => {
    operator = await TestApp.create();
    dialler = await TestApp.create();
    dialler.get(TelephonyChanges).subscribe((change) => heard.push(change));
  });
  afterAll(async () => {
    await dialler?.close();
    await operator?.close();
  });
  beforeEach(async () => {
    await operator.reset();
    ws = await operator.seed();
    const admin = operator.get(PhoneNumberAdministration);
    await admin.add({ workspaceId: ws.workspaceId, e164: FROM, carrier: 'twilio' });
    // Served by Twilio at an address nothing listens on, and switched off: a call from it is refused before any request.
    await admin.configureCarrier({ workspaceId: ws.workspaceId, carrier: 'twilio', adapter: 'twilio', baseUrl: 'http://127.0.0.1:9', credentials: TWILIO });
    await admin.setCarrier({ workspaceId: ws.workspaceId, carrier: 'twilio', enabled: false });
    // The set-up's own announcements have crossed once a marker announced after them has (Redis keeps a channel's order).
    const marker = randomUUID();
    await operator.get(TelephonyChanges).announce({ workspaceId: marker });
    for (const since = Date.now(); !heard.some((c) => 'workspaceId' in c && c.workspaceId === marker); ) {
      if (Date.now() - since > 2000) throw new Error('the dialler heard no announcement');
      await new Promise((r) => setTimeout(r, 5));
    }
  });

  const place = () =>
    dialler.get(VoiceProvider).placeCall({
      callId: `0c0c0c0c-0000-4000-8000-${String(++calls).padStart(12, '0')}`,
      workspaceId: ws.workspaceId,
      from: FROM,
      to: '+14155550105',
      agentId: null,
      maxDurationSecs: 60,
      variables: {},
    });

  /** The dialler's next call, tried every 10 ms until `accepted` or `bound` ms: how long the change took to arrive. */
  async function arrival(bound: number): Promise<number> {
    const since = Date.now();
    for (;;) {
      const placed = await place().then(
        (p) => p.providerCallId,
        () => null,
      );
      if (placed?.startsWith('sbx_call_')) return Date.now() - since;
      if (Date.now() - since > bound) throw new Error(`the change had not arrived after ${bound} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('an operator’s change through another process applies to the next call, well inside the 1 s the cache keeps an entry', async () => {
    await expect(place()).rejects.toMatchObject({ code: 'phone_number_not_in_workspace' }); // the dialler now holds the disabled carrier
    // Back to the sandbox: the dialler's next call goes there, as soon as the announcement has crossed Redis.
    await operator.get(PhoneNumberAdministration).configureCarrier({ workspaceId: ws.workspaceId, carrier: 'twilio', adapter: 'sandbox' });
    expect(await arrival(500)).toBeLessThan(500);
  });

  it('a change written behind the service’s back is not seen at once (the router reads no longer before every call), and is within 1 s', async () => {
    await expect(place()).rejects.toMatchObject({ code: 'phone_number_not_in_workspace' });
    await operator.dataSource.query(`UPDATE telephony_carriers SET adapter = NULL, base_url = NULL, credentials_sealed = NULL WHERE workspace_id = $1 AND name = 'twilio'`, [
      ws.workspaceId,
    ]);
    await expect(place()).rejects.toMatchObject({ code: 'phone_number_not_in_workspace' });
    expect(await arrival(CALLER_ID_ROUTE_TTL_MS + 500)).toBeLessThan(CALLER_ID_ROUTE_TTL_MS + 500);
  });
});
