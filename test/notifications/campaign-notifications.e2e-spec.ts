import { runCli } from '../support/cli-process';
import { NotificationEmailSender } from '@outreach/notifications';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { RecordingEmailSender } from '../../libs/notifications/src/testing';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { EngineProbe, runnableCampaign, sandboxNumber, startCampaign, waitFor } from '../engine/engine-harness';
import { readCampaign } from '../campaigns/campaign-helpers';

/*
 * notificationUserIds take effect (issue 22, item 6; decisions.md 13.13): the members named on a
 * campaign are notified when it completes, is paused by the service (with the reason) or stops
 * for credit — one row per member and event, written through the outbox by the worker, listed by
 * the operator CLI, and e-mailed through the sender port when the workspace has one.
 */
interface NotificationRow {
  member_id: string;
  email: string;
  event: string;
  reason: string | null;
  email_status: string;
  campaign_name: string;
}

describe('campaign notifications', () => {
  let t: TestApp;
  let ws: Seeded;
  let worker: WorkerApp | null = null;
  const email = new RecordingEmailSender();

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
    email.sent.length = 0;
    email.configured = true;
  });
  afterEach(async () => {
    await worker?.close();
    worker = null;
  });

  const startWorker = async () => {
    worker = await WorkerApp.create({ root: WorkerModule, configure: (b) => b.overrideProvider(NotificationEmailSender).useValue(email) });
  };
  const rows = (campaignId: string): Promise<NotificationRow[]> =>
    t.dataSource.query(
      `SELECT member_id, email, event, reason, email_status, campaign_name FROM notifications WHERE campaign_id = $1 ORDER BY email`,
      [campaignId],
    );
  const members = async () => {
    const alice = await t.members.add({ workspaceId: ws.workspaceId, email: 'alice@example.com' });
    const bob = await t.members.add({ workspaceId: ws.workspaceId, email: 'bob@example.com' });
    const carol = await t.members.add({ workspaceId: ws.workspaceId, email: 'carol@example.com' });
    return { alice, bob, carol };
  };
  const name = async (campaignId: string, notificationUserIds: string[]) => {
    const res = await t.http.patch(`/v1/campaigns/${campaignId}`).set(bearer(ws.key)).send({ name: 'Winter renewals', notificationUserIds });
    expect(res.status).toBe(200);
  };

  it('completed: one row per member still ACTIVE, e-mailed through the sender port; the operator CLI lists them', async () => {
    const { alice, bob, carol } = await members();
    const { campaignId } = await runnableCampaign(t, ws, { phones: [sandboxNumber(0, 7), sandboxNumber(1, 8)], settings: { retryCount: 0 } });
    await name(campaignId, [alice.id, bob.id, carol.id]);
    await t.members.setStatus(carol.id, 'SUSPENDED'); // after she was named: not told
    await startWorker();
    await startCampaign(t, ws, campaignId);
    await waitFor('campaign COMPLETED', () => new EngineProbe(t).campaignStatus(campaignId), (s) => s === 'COMPLETED');

    const written = await waitFor('the notifications', () => rows(campaignId), (r) => r.length === 2 && r.every((n) => n.email_status === 'sent'));
    expect(written).toEqual([
      { member_id: alice.id, email: 'alice@example.com', event: 'campaign_completed', reason: null, email_status: 'sent', campaign_name: 'Winter renewals' },
      { member_id: bob.id, email: 'bob@example.com', event: 'campaign_completed', reason: null, email_status: 'sent', campaign_name: 'Winter renewals' },
    ]);
    expect(email.sent.map((m) => [m.workspaceId, m.to, m.subject])).toEqual([
      [ws.workspaceId, 'alice@example.com', 'Campaign "Winter renewals" completed'],
      [ws.workspaceId, 'bob@example.com', 'Campaign "Winter renewals" completed'],
    ]);

    const listed = await runCli(['notification:list', '--workspace', ws.workspaceId, '--campaign', campaignId]);
    expect(listed.code).toBe(0);
    const { notifications } = JSON.parse(listed.stdout) as { notifications: Array<Record<string, unknown>> };
    expect(notifications.map((n) => [n.email, n.event, n.emailStatus, n.campaignId])).toEqual(
      expect.arrayContaining([
        ['alice@example.com', 'campaign_completed', 'sent', campaignId],
        ['bob@example.com', 'campaign_completed', 'sent', campaignId],
      ]),
    );
    expect(notifications).toHaveLength(2);
  }, 60_000);

  it('credit exhausted: the named members are told, and without an e-mail sender the rows say not_configured', async () => {
    email.configured = false;
    const { alice } = await members();
    const phones = Array.from({ length: 4 }, (_, i) => sandboxNumber(i, 7));
    const { campaignId } = await runnableCampaign(t, ws, { phones, creditMinor: 10, settings: { retryCount: 0 } });
    await name(campaignId, [alice.id]);
    await startWorker();
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 1 });
    await waitFor('campaign CREDIT_EXHAUSTED', () => new EngineProbe(t).campaignStatus(campaignId), (s) => s === 'CREDIT_EXHAUSTED');
    const written = await waitFor('the notification', () => rows(campaignId), (r) => r.length === 1);
    expect(written[0]).toMatchObject({ member_id: alice.id, event: 'campaign_credit_exhausted', reason: null, email_status: 'not_configured' });
    expect(email.sent).toEqual([]);
  }, 60_000);

  it('paused by the service: every caller id on a disabled carrier → PAUSED, no call placed, the members told the reason', async () => {
    const { alice } = await members();
    const { campaignId } = await runnableCampaign(t, ws, { phones: [sandboxNumber(0, 7)], settings: { retryCount: 0 } });
    await name(campaignId, [alice.id]);
    await startCampaign(t, ws, campaignId); // the worker is not running yet: nothing is dialled
    await t.get(PhoneNumberAdministration).setCarrier({ workspaceId: ws.workspaceId, carrier: 'sandbox', enabled: false });
    await startWorker();

    await waitFor('campaign PAUSED', () => new EngineProbe(t).campaignStatus(campaignId), (s) => s === 'PAUSED');
    const written = await waitFor('the notification', () => rows(campaignId), (r) => r.length === 1 && r[0].email_status === 'sent');
    expect(written[0]).toMatchObject({ member_id: alice.id, event: 'campaign_paused', reason: 'no_usable_caller_id' });
    expect(email.sent[0]).toMatchObject({ to: 'alice@example.com', subject: 'Campaign "Winter renewals" was paused' });
    expect(email.sent[0].text).toContain('Reason: no_usable_caller_id');
    // The campaign itself says why it is paused.
    expect(await readCampaign(t, ws.key, campaignId)).toMatchObject({ status: 'PAUSED', pauseReason: 'no_usable_caller_id' });
    expect(await new EngineProbe(t).calls(campaignId)).toEqual([]);
    expect((await new EngineProbe(t).contacts(campaignId)).map((c) => c.status)).toEqual(['PENDING']);
  }, 60_000);

  it('a campaign with no notificationUserIds writes no notification', async () => {
    const { campaignId } = await runnableCampaign(t, ws, { phones: [sandboxNumber(0, 7)], settings: { retryCount: 0 } });
    await startWorker();
    await startCampaign(t, ws, campaignId);
    await waitFor('campaign COMPLETED', () => new EngineProbe(t).campaignStatus(campaignId), (s) => s === 'COMPLETED');
    await new Promise((r) => setTimeout(r, 500)); // the outbox relay polls every 50 ms here
    expect(await rows(campaignId)).toEqual([]);
  }, 60_000);
});
