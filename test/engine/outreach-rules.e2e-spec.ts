// Outreach rules on replies (issue 12 item 6; decisions.md 34.3-34.5) through the real API and worker:
// a WhatsApp message to a campaign contact, the sandbox's reply (5 "Yes, interested", 6 "No thanks"),
// the engine's outreach queue judging it through the analysis port (the sandbox analyser), HAND_OFF
// on the contact, and no further dial for it. The clock is a FixedClock the test moves.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000';

import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { SandboxCallAnalyser } from '@outreach/calls';
import { Queue } from 'bullmq';
import { hubSignature, MessageEvents, SendMessage } from '@outreach/messaging';
import { Clock, FixedClock } from '@outreach/platform';
import { addContacts, createCampaign, credit, expectError } from '../campaigns/campaign-helpers';
import { connectSender, createTemplate, numberEndingIn } from '../messaging/messaging-helpers';
import { pushLead, runningApiCampaign } from '../results/results-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { CountingVoiceProvider, dispatcher, EngineProbe, runnableCampaign, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from './engine-harness';

const MONDAY_10_UTC = new Date('2026-11-23T10:00:00Z');
const AFTERNOON = new Date('2026-11-23T14:00:00Z');
const INTERESTED = { trigger: 'MESSAGE_REPLY', afterDays: 0, condition: { kind: 'ai_interested', describe: 'Does the contact want to hear more?' }, conditions: [], match: 'ALL', action: 'HAND_OFF' };

describe('outreach rules: a reply hands the contact off', () => {
  const clock = new FixedClock(MONDAY_10_UTC);
  const voice = new CountingVoiceProvider(sandboxFor(clock));
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let probe: EngineProbe;
  let sender: Record<string, unknown>;
  let template: Record<string, unknown>;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    worker = await startWorker({ clock, voice });
    probe = new EngineProbe(t);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    clock.set(MONDAY_10_UTC);
    voice.reset();
    await t.reset();
    ws = await t.seed({ features: ['whatsapp', 'api_results', 'email'] });
    sender = await connectSender(t, ws.key, numberEndingIn(4));
    template = await createTemplate(t, ws.key, { body: 'Hello! Would you like a call about our offer?', bindings: [] });
    await t.http.post(`/whatsapp/templates/${template.id}/submit`).set(bearer(ws.key));
    await waitFor('the sender and the template', async () => ({
      sender: (await t.http.get(`/whatsapp/senders/${sender.id}`).set(bearer(ws.key))).body.status,
      template: (await t.http.get(`/whatsapp/templates/${template.id}`).set(bearer(ws.key))).body.status,
    }), (s) => s.sender === 'CONNECTED' && s.template === 'APPROVED');
  });

  /** Sends the outreach template from the worker, as a message leg does: the sandbox's reply arrives there. */
  const message = (to: string) =>
    worker.get(SendMessage).send({
      workspaceId: ws.workspaceId,
      channel: 'WHATSAPP',
      senderId: sender.id as string,
      templateId: template.id as string,
      to,
      variables: {},
      idempotencyKey: `test-${to}`,
    });
  const contactOf = async (campaignId: string, phone: string) =>
    (await t.dataSource.query(`SELECT id, status, last_outcome FROM campaign_contacts WHERE campaign_id = $1 AND phone = $2`, [campaignId, phone]))[0];
  /** Reply jobs the worker has finished (the outreach queue keeps completed jobs for a day). */
  const repliesJudged = () => worker.get<Queue>(getQueueToken('outreach') as never).getCompletedCount();
  const inbound = async () => Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE direction = 'INBOUND'`))[0].n);

  it('the sandbox analyser judges the sandbox replies as this test expects', async () => {
    const judge = (text: string) =>
      new SandboxCallAnalyser().analyse({ transcript: `Contact: ${text}`, extractionKeys: [], metrics: [{ key: 'ai_interested', label: 'x', allowedValues: ['yes', 'no'], prompt: 'x' }] });
    expect((await judge('Yes, interested')).evaluation).toEqual({ ai_interested: 'yes' });
    expect((await judge('No thanks')).evaluation).toEqual({ ai_interested: 'no' });
  });

  it('an interested reply: HAND_OFF, a timeline event, the HAND_OFF lead filter, and never a dial; a reply judged otherwise changes nothing', async () => {
    const yes = sandboxNumber(1, 5);
    const no = sandboxNumber(2, 6);
    const silent = sandboxNumber(3, 7);
    const { campaignId } = await runnableCampaign(t, ws, {
      phones: [yes, no, silent],
      settings: { channel: 'VOICE_THEN_WHATSAPP', whatsappOutreachTemplateId: template.id, dailyWindowStart: '14:00', dailyWindowEnd: '18:00' },
    });
    // The same person in a campaign without rules: nothing happens there.
    const plain = await createCampaign(t, ws.key, { channel: 'VOICE_THEN_WHATSAPP' });
    await addContacts(t, ws.key, plain.id, [yes]);
    const rules = await t.http.put(`/campaigns/${campaignId}/outreach`).set(bearer(ws.key)).send({ outreachRules: [INTERESTED] });
    expect(rules.status).toBe(200);
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 3 });

    // "No thanks" first, then "Yes, interested": the outreach queue judges them in order.
    expect((await message(no)).outcome).toBe('sent');
    expect((await message(yes)).outcome).toBe('sent');
    await waitFor('the interested contact handed off', () => contactOf(campaignId, yes), (c) => c.status === 'HAND_OFF');
    expect(await inbound()).toBe(2);
    expect(await contactOf(campaignId, yes)).toMatchObject({ status: 'HAND_OFF', last_outcome: 'hand_off' });
    expect((await contactOf(campaignId, no)).status).toBe('PENDING');
    expect((await contactOf(plain.id, yes)).status).toBe('PENDING');

    const handed = await contactOf(campaignId, yes);
    const timeline = await t.http.get(`/campaigns/${campaignId}/contacts/${handed.id}/timeline`).set(bearer(ws.key));
    const event = (timeline.body.items as Array<{ type: string; at: string; detail: Record<string, unknown> }>).find((e) => e.type === 'handed_off');
    const sent = (await t.dataSource.query(`SELECT id FROM messages WHERE direction = 'OUTBOUND' AND address = $1`, [yes]))[0];
    expect(event).toEqual({
      type: 'handed_off',
      at: MONDAY_10_UTC.toISOString(),
      detail: { rule: 0, trigger: 'MESSAGE_REPLY', messageId: sent.id, replyId: expect.any(String), verdicts: { ai_interested: true }, from: 'PENDING' },
    });
    const leads = await t.http.get(`/campaigns/${campaignId}/leads?status=HAND_OFF`).set(bearer(ws.key));
    expect(leads.status).toBe(200);
    expect(leads.body.items.map((l: { phone: string }) => l.phone)).toEqual([yes]);

    // The window opens: the two others are dialled, the handed-off contact never is.
    clock.set(AFTERNOON);
    await dispatcher(worker)(campaignId);
    await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (s) => s === 'COMPLETED');
    expect(voice.placed.get(yes)).toBeUndefined();
    expect(voice.placed.get(no)).toBe(1);
    expect(voice.placed.get(silent)).toBe(1);
    expect(await probe.statusCounts(campaignId)).toEqual({ COMPLETED: 2, HAND_OFF: 1 });
  });

  it('a reply is matched to the contact its message was sent for, not to every campaign the phone is in (decisions.md 33.18)', async () => {
    const phone = sandboxNumber(1, 5); // the sandbox answers "Yes, interested"
    const campaigns: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { campaignId } = await runnableCampaign(t, ws, {
        phones: [phone],
        settings: { channel: 'VOICE_THEN_WHATSAPP', whatsappOutreachTemplateId: template.id, dailyWindowStart: '14:00', dailyWindowEnd: '18:00' },
      });
      expect((await t.http.put(`/campaigns/${campaignId}/outreach`).set(bearer(ws.key)).send({ outreachRules: [INTERESTED] })).status).toBe(200);
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 1 });
      campaigns.push(campaignId);
    }
    const [first, second] = await Promise.all(campaigns.map((id) => contactOf(id, phone)));
    const sendFor = (key: string) =>
      worker.get(SendMessage).send({ workspaceId: ws.workspaceId, channel: 'WHATSAPP', senderId: sender.id as string, templateId: template.id as string, to: phone, variables: {}, idempotencyKey: key });
    const judged = await repliesJudged();
    // The first campaign's leg writes to the person: the reply hands off that contact only.
    expect((await sendFor(`leg-${first.id}-1`)).outcome).toBe('sent');
    await waitFor('the reply judged', repliesJudged, (n) => n === judged + 1);
    expect({ first: (await contactOf(campaigns[0], phone)).status, second: (await contactOf(campaigns[1], phone)).status }).toEqual({ first: 'HAND_OFF', second: 'PENDING' });
    // A remessage of the second campaign: the reply to it hands off the second contact.
    expect((await sendFor(`remessage-${randomUUID()}-${second.id}`)).outcome).toBe('sent');
    await waitFor('the second contact handed off', () => contactOf(campaigns[1], phone), (c) => c.status === 'HAND_OFF');
  });

  it('a reply typed without quoting (no context.id, the common WhatsApp case) is judged for the latest message sent to that number (decisions.md 33.20)', async () => {
    const phone = sandboxNumber(1, 7); // the sandbox delivers and reads, and never answers
    const { campaignId } = await runnableCampaign(t, ws, {
      phones: [phone],
      settings: { channel: 'VOICE_THEN_WHATSAPP', whatsappOutreachTemplateId: template.id, dailyWindowStart: '14:00', dailyWindowEnd: '18:00' },
    });
    expect((await t.http.put(`/campaigns/${campaignId}/outreach`).set(bearer(ws.key)).send({ outreachRules: [INTERESTED] })).status).toBe(200);
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 1 });
    const contact = await contactOf(campaignId, phone);
    const sent = await worker.get(SendMessage).send({
      workspaceId: ws.workspaceId,
      channel: 'WHATSAPP',
      senderId: sender.id as string,
      templateId: template.id as string,
      to: phone,
      variables: {},
      idempotencyKey: `leg-${contact.id}-1`,
    });
    expect(sent.outcome).toBe('sent');
    const judged = await repliesJudged();
    const typed = { from: phone.slice(1), id: `wamid.in.${randomUUID()}`, timestamp: String(MONDAY_10_UTC.getTime() / 1000 + 60), type: 'text', text: { body: 'Yes, interested' } };
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1' }, messages: [typed] } }] }],
    });
    const posted = await t.http
      .post(`/webhooks/whatsapp/${sender.id}`)
      .set('Content-Type', 'application/json')
      .set('X-Hub-Signature-256', hubSignature(t.config.whatsappAppSecret, raw))
      .send(raw);
    expect(posted.status).toBe(200);
    await waitFor('the reply judged', repliesJudged, (n) => n === judged + 1);
    expect(await contactOf(campaignId, phone)).toMatchObject({ status: 'HAND_OFF', last_outcome: 'hand_off' });
    const [reply] = await t.dataSource.query(`SELECT in_reply_to_id FROM messages WHERE direction = 'INBOUND'`);
    expect(reply.in_reply_to_id).toBe(sent.message.id);
  });

  it('an API lead handed off ends with a result: status hand_off', async () => {
    const campaign = await runningApiCampaign(t, ws.key, ws.workspaceId, {
      channel: 'VOICE_THEN_WHATSAPP',
      whatsappOutreachTemplateId: template.id,
      dailyWindowStart: '14:00',
      dailyWindowEnd: '18:00',
    });
    expect((await t.http.put(`/campaigns/${campaign.id}/outreach`).set(bearer(ws.key)).send({ outreachRules: [INTERESTED] })).status).toBe(200);
    const phone = sandboxNumber(4, 5);
    const pushed = await pushLead(t, ws.key, campaign.id, { idempotencyKey: `lead-${Date.now()}`, phone });
    expect(pushed.status).toBe(201);
    await message(phone);

    const leadId = pushed.body.id as string;
    const lead = await waitFor('the result', async () => (await t.http.get(`/v1/campaigns/${campaign.id}/leads/${leadId}`).set(bearer(ws.key))).body, (b) => typeof b.resultId === 'string');
    expect(lead.status).toBe('HAND_OFF');
    const result = await t.http.get(`/v1/results/${lead.resultId}`).set(bearer(ws.key));
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ leadId, status: 'hand_off', disposition: 'hand_off', attempts: 0, finalCall: null });
  });

  it('an outreach edit on a campaign with rules: PUT with [] clears them, and a later reply hands nobody off', async () => {
    const yes = sandboxNumber(5, 5);
    const { campaignId } = await runnableCampaign(t, ws, {
      phones: [yes],
      settings: { channel: 'VOICE_THEN_WHATSAPP', whatsappOutreachTemplateId: template.id, dailyWindowStart: '14:00', dailyWindowEnd: '18:00' },
    });
    await t.http.put(`/campaigns/${campaignId}/outreach`).set(bearer(ws.key)).send({ outreachRules: [INTERESTED] });
    await startCampaign(t, ws, campaignId);
    expect((await t.http.put(`/campaigns/${campaignId}/outreach`).set(bearer(ws.key)).send({ outreachRules: [] })).status).toBe(200);
    const stored = await inbound();
    await message(yes);
    await waitFor('the reply stored', inbound, (n) => n === stored + 1);
    // No campaign judges this phone's replies any more, so no reply-rules job is written for it
    // (decisions.md 47.7): the reply delivered again, through every subscriber, adds no job row.
    const [reply] = await t.dataSource.query(
      `SELECT r.in_reply_to_id AS message_id, r.provider_message_id AS reply_id, m.provider_message_id FROM messages r JOIN messages m ON m.id = r.in_reply_to_id WHERE r.address = $1`,
      [yes],
    );
    const jobRows = async () => Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE name = 'reply-rules'`))[0].n);
    const rows = await jobRows();
    await worker.get(MessageEvents).deliver({
      channel: 'WHATSAPP',
      type: 'replied',
      provider: 'sandbox',
      eventId: reply.reply_id,
      messageId: reply.message_id,
      providerMessageId: reply.provider_message_id,
      at: new Date(),
      text: 'Yes, interested',
    });
    expect(await jobRows()).toBe(rows);
    expect((await contactOf(campaignId, yes)).status).toBe('PENDING');
    expectError(await t.http.put(`/campaigns/${campaignId}/outreach`).set(bearer(ws.key)).send({ channel: 'WHATSAPP' }), 400, 'campaign_channel_switch_not_supported');
  });

  describe('POST /campaigns/{id}/remessage', () => {
    const remessage = (id: string, body: object = {}, key = ws.key) => t.http.post(`/campaigns/${id}/remessage`).set(bearer(key)).send(body);
    const outboundTo = async (phone: string) =>
      Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE direction = 'OUTBOUND' AND address = $1`, [phone]))[0].n);
    const outboxRows = async () => Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE name = 'remessage-contact'`))[0].n);

    it('sends the outreach template again to finished contacts, never to a HAND_OFF one; a reply to it is judged by the rules', async () => {
      const seven = sandboxNumber(1, 7);
      const eight = sandboxNumber(2, 8);
      const five = sandboxNumber(3, 5);
      const retrying = sandboxNumber(4, 0); // no answer: a retry keeps the campaign RUNNING
      const { campaignId } = await runnableCampaign(t, ws, {
        phones: [seven, eight, five, retrying],
        settings: { channel: 'VOICE_THEN_WHATSAPP', whatsappOutreachTemplateId: template.id, retryDelaysMinutes: [60] },
      });
      expect((await t.http.put(`/campaigns/${campaignId}/outreach`).set(bearer(ws.key)).send({ outreachRules: [INTERESTED] })).status).toBe(200);
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 4 });
      await waitFor('the calls', () => probe.statusCounts(campaignId), (c) => c.COMPLETED === 3 && c.RETRY_SCHEDULED === 1);

      const first = await remessage(campaignId);
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ remessageId: expect.any(String), queued: 3, skipped: 0 });
      await waitFor('three messages and the hand-off', async () => ({ sent: (await outboundTo(seven)) + (await outboundTo(eight)) + (await outboundTo(five)), five: (await contactOf(campaignId, five)).status }), (x) => x.sent === 3 && x.five === 'HAND_OFF');
      expect(await outboundTo(retrying)).toBe(0);
      const contact = await contactOf(campaignId, seven);
      const timeline = await t.http.get(`/campaigns/${campaignId}/contacts/${contact.id}/timeline`).set(bearer(ws.key));
      expect(timeline.body.items.filter((e: { type: string }) => e.type === 'message_sent')).toEqual([
        { type: 'message_sent', at: MONDAY_10_UTC.toISOString(), detail: { messageId: expect.any(String), remessageId: first.body.remessageId } },
      ]);

      // Again: the handed-off contact is left out, named or not.
      const second = await remessage(campaignId);
      expect(second.body).toMatchObject({ queued: 2, skipped: 0 });
      await waitFor('two more messages', async () => (await outboundTo(seven)) + (await outboundTo(eight)), (n) => n === 4);
      const handed = await contactOf(campaignId, five);
      expect((await remessage(campaignId, { contactIds: [handed.id, contact.id] })).body).toMatchObject({ queued: 1, skipped: 1 });
      await waitFor('the named contact messaged', () => outboundTo(seven), (n) => n === 3);
      expect(await outboundTo(five)).toBe(1);
    });

    it('an EMAIL campaign: its email goes again from the default mailbox and template to the contacts whose run is over (decisions.md 33.19)', async () => {
      const k = bearer(ws.key);
      const smtp = { host: 'smtp.example.com', port: 587, username: 'u', password: 'p4ssword', secure: false };
      expect((await t.http.post('/email/senders').set(k).send({ fromAddress: 'sales@example.com', displayName: 'Acme', replyTo: null, smtp })).status).toBe(201);
      const emailTemplate = { name: 'Offer', subject: 'For {{1}}', htmlBody: '<p>Hi {{1}}</p>', textBody: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] };
      expect((await t.http.post('/email/templates').set(k).send(emailTemplate)).status).toBe(201);
      // Three contacts, two messages a day: two are done today, the third keeps the campaign RUNNING.
      const campaign = await createCampaign(t, ws.key, { channel: 'EMAIL', timezone: 'UTC', dailyWindowStart: '00:00', dailyWindowEnd: '00:00', recipientHours: 'off', dailyMessageCap: 2 });
      const contacts = [0, 1, 2].map((i) => ({ phone: sandboxNumber(20 + i, 7), name: `Reader ${i}`, fields: { email: `reader.${i}@example.com` } }));
      expect((await t.http.post(`/campaigns/${campaign.id}/contacts`).set(k).send(contacts)).status).toBe(201);
      await credit(t, ws.workspaceId);
      await startCampaign(t, ws, campaign.id, { reservedConcurrency: 3 });
      await waitFor('two emails delivered', () => probe.statusCounts(campaign.id), (c) => c.COMPLETED === 2 && c.PENDING === 1);
      const emails = async () =>
        (await t.dataSource.query(`SELECT address, idempotency_key FROM messages WHERE channel = 'EMAIL' AND direction = 'OUTBOUND' ORDER BY created_at`)) as Array<{ address: string; idempotency_key: string }>;
      const before = await emails();
      expect(before).toHaveLength(2);

      const res = await remessage(campaign.id);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ remessageId: expect.any(String), queued: 2, skipped: 0 });
      await waitFor('the two emails sent again', async () => (await emails()).length, (n) => n === 4);
      // The clock is fixed: every message has the same created_at, so the remessage's are told by their key.
      const again = (await emails()).filter((m) => m.idempotency_key.startsWith('remessage-'));
      expect(again).toHaveLength(2);
      expect(new Set(again.map((m) => m.address))).toEqual(new Set(before.map((m) => m.address)));
      for (const m of again) expect(m.idempotency_key).toMatch(new RegExp(`^remessage-${res.body.remessageId}-`));
      expect(await probe.statusCounts(campaign.id)).toEqual({ COMPLETED: 2, PENDING: 1 });
    });

    it('409 campaign_channel_not_message_followup, 400 campaign_not_running, inbound_campaign_action_not_supported, 404s, 400 invalid_body: nothing queued', async () => {
      const voiceOnly = await createCampaign(t, ws.key, { channel: 'VOICE' });
      const whatsapp = await createCampaign(t, ws.key, { channel: 'WHATSAPP' });
      await addContacts(t, ws.key, whatsapp.id, [sandboxNumber(9, 7)]);
      const inboundCampaign = await createCampaign(t, ws.key, { channel: 'WHATSAPP' });
      await t.dataSource.query(`UPDATE campaigns SET status = 'RUNNING' WHERE id = ANY($1::uuid[])`, [[voiceOnly.id, inboundCampaign.id]]);
      await t.dataSource.query(`UPDATE campaigns SET source = 'INBOUND' WHERE id = $1`, [inboundCampaign.id]);
      const other = await t.seed({ features: ['whatsapp'] });

      expectError(await remessage(voiceOnly.id), 409, 'campaign_channel_not_message_followup');
      expectError(await remessage(inboundCampaign.id), 400, 'inbound_campaign_action_not_supported');
      expectError(await t.http.put(`/campaigns/${inboundCampaign.id}/outreach`).set(bearer(ws.key)).send({ outreachRules: [] }), 400, 'inbound_campaign_action_not_supported');
      for (const status of ['DRAFT', 'PAUSED', 'CREDIT_EXHAUSTED', 'COMPLETED', 'CANCELED']) {
        await t.dataSource.query(`UPDATE campaigns SET status = $2 WHERE id = $1`, [whatsapp.id, status]);
        expectError(await remessage(whatsapp.id), 400, 'campaign_not_running');
      }
      await t.dataSource.query(`UPDATE campaigns SET status = 'RUNNING' WHERE id = $1`, [whatsapp.id]);
      expectError(await remessage('0b0b0b0b-0000-4000-8000-000000000000'), 404, 'campaign_not_found');
      expectError(await remessage(whatsapp.id, {}, other.key), 404, 'campaign_not_found');
      expectError(await remessage(whatsapp.id, { contactIds: ['0b0b0b0b-0000-4000-8000-000000000000'] }), 404, 'contact_not_found');
      expectError(await remessage(whatsapp.id, { contactIds: ['not-a-uuid'] }), 400, 'invalid_body');
      expectError(await remessage(whatsapp.id, { contactIds: [] }), 400, 'invalid_body');
      expect(await outboxRows()).toBe(0);
    });
  });
});
