import { PhoneNumberAdministration } from '@outreach/telephony';
import { addContacts, createCampaign, credit, randomE164 } from '../../campaigns/campaign-helpers';
import { finishLead, pushLead, runningApiCampaign } from '../../results/results-helpers';
import { createActiveAgent } from '../../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../../support/test-app';

/** Every kind of workspace-owned resource the API exposes, created through the API where it can be. */
export interface Tenant {
  ws: Seeded;
  agentId: string;
  functionId: string;
  functionHeaderSecret: string;
  campaignTypeId: string;
  /** A CSV campaign with contacts and an attached number (DRAFT). */
  campaignId: string;
  contactIds: string[];
  phoneNumberId: string;
  dncId: string;
  dncPhone: string;
  callId: string;
  /** A RUNNING API campaign with one finished lead, its result and a webhook delivery. */
  apiCampaignId: string;
  leadId: string;
  leadCallId: string;
  resultId: string;
  webhookId: string;
  webhookSecret: string;
  deliveryId: string;
  rechargeId: string;
  exportId: string;
  /** Messaging (issue 12): a WhatsApp sender and template, an email sender and template. */
  whatsappSenderId: string;
  whatsappTemplateId: string;
  emailSenderId: string;
  emailTemplateId: string;
  /** A chat session about the CSV campaign (one question, one answer). */
  chatSessionId: string;
  /** A sandbox CRM connection, and a CRM import (pending: no worker here) into the CSV campaign. */
  crmConnectionId: string;
  crmImportId: string;
  /** An order-notification rule of the CRM connection (sends the WhatsApp template on ORDER_CREATED). */
  orderRuleId: string;
  /** A DRAFT workflow (issue 13). */
  workflowId: string;
  /** A run of that workflow (a row: runs start only in a worker, and none runs here). */
  runId: string;
  /** Knowledge (issue 18): a provisioned document in a knowledge base, a chatbot over it, a dictionary. */
  documentId: string;
  knowledgeBaseId: string;
  chatbotId: string;
  dictionaryId: string;
}

function ok(res: { status: number; body: unknown }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Builds one tenant. The test call names its own fromPhoneNumberId (no SANDBOX_FROM_NUMBER needed). Webhook targets are a public literal (https://8.8.8.8/hook): deliveries
 * are recorded with the result, and nothing is sent because no worker relays the outbox here.
 */
export async function createTenant(t: TestApp, label: string): Promise<Tenant> {
  const ws = await t.seed({ name: `tenant-${label}`, features: ['api_results', 'exports', 'whatsapp', 'email', 'crm', 'workflows', 'knowledge', 'inbound'] });
  const k = bearer(ws.key);
  await credit(t, ws.workspaceId, 100_000);

  const agentId = (await createActiveAgent(t, ws.key, { name: `Agent ${label}` })).id;

  const functionHeaderSecret = `Bearer fn_secret_${label}_${Math.random().toString(36).slice(2, 12)}`;
  const fn = await t.http
    .post('/functions')
    .set(k)
    .send({
      name: `lookup_${label.toLowerCase()}`,
      description: 'Looks a customer up',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
      method: 'POST',
      url: 'https://crm.example.com/hooks/lookup',
      headers: { Authorization: functionHeaderSecret },
    });
  ok(fn, 201, 'POST /functions');

  const type = await t.http
    .post('/campaign-types')
    .set(k)
    .send({ name: `Type ${label}`, description: 'Tenant type', extractionKeys: [{ name: 'plan', description: 'Plan' }] });
  ok(type, 201, 'POST /campaign-types');

  const campaign = await createCampaign(t, ws.key, { agentId, campaignTypeId: type.body.id });
  await addContacts(t, ws.key, campaign.id, [randomE164(), randomE164()]);
  const leads = await t.http.get(`/campaigns/${campaign.id}/leads`).set(k);
  ok(leads, 200, 'GET /campaigns/:id/leads');
  const contactIds = (JSON.stringify(leads.body).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? []).filter(
    (id) => id !== campaign.id,
  );
  const leadItems = (leads.body.leads ?? leads.body.items ?? leads.body.contacts ?? []) as Array<{ id: string }>;
  const contacts = leadItems.length > 0 ? leadItems.map((l) => l.id) : contactIds;
  if (contacts.length < 2) throw new Error(`contacts not listed: ${JSON.stringify(leads.body)}`);

  const number = await t.get(PhoneNumberAdministration).add({ workspaceId: ws.workspaceId, e164: randomE164() });
  ok(await t.http.post(`/campaigns/${campaign.id}/phone-numbers`).set(k).send({ phoneNumberId: number.id }), 200, 'attach number');

  const dncPhone = randomE164();
  const dnc = await t.http.post('/dnc').set(k).send({ phone: dncPhone });
  ok(dnc, 201, 'POST /dnc');

  const call = await t.http
    .post('/calls/test')
    .set(k)
    .set('Idempotency-Key', `tenancy-${label}-${Date.now()}`)
    .send({ agentId, toNumber: '+14155550107', fromPhoneNumberId: number.id, variables: { contact_name: 'Dana' } });
  ok(call, 201, 'POST /calls/test');

  const webhookSecretRes = await t.http.post('/result-webhooks').set(k).send({ url: 'https://8.8.8.8/hook', description: `hook ${label}` });
  ok(webhookSecretRes, 201, 'POST /result-webhooks');

  const api = await runningApiCampaign(t, ws.key, ws.workspaceId);
  const lead = await pushLead(t, ws.key, api.id, { idempotencyKey: `lead-${label}`, phone: randomE164() });
  ok(lead, 201, 'push lead');
  const finished = await finishLead(t, ws.workspaceId, api.id, lead.body.id);

  const deliveries = await t.http.get('/result-webhooks/deliveries').set(k);
  ok(deliveries, 200, 'GET /result-webhooks/deliveries');
  const deliveryItems = (deliveries.body.items ?? deliveries.body.deliveries ?? deliveries.body.data) as Array<{ id: string }>;
  if (!deliveryItems?.length) throw new Error(`no delivery: ${JSON.stringify(deliveries.body)}`);

  const recharges = await t.http.get('/credits/recharges').set(k);
  ok(recharges, 200, 'GET /credits/recharges');
  const rechargeItems = (recharges.body.items ?? recharges.body.recharges ?? recharges.body.data) as Array<{ orderId: string }>;
  if (!rechargeItems?.length) throw new Error(`no recharge: ${JSON.stringify(recharges.body)}`);

  const exported = await t.http.post(`/campaigns/${campaign.id}/exports`).set(k).send({ format: 'CSV', period: 'all_time' });
  ok(exported, 202, 'POST /campaigns/{id}/exports');

  const sender = await t.http
    .post('/whatsapp/senders')
    .set(k)
    .send({ phoneNumber: randomE164(), credentials: { accessToken: `wa_token_${label}`, phoneNumberId: '1065', businessAccountId: '1022' } });
  ok(sender, 201, 'POST /whatsapp/senders');
  const template = await t.http
    .post('/whatsapp/templates')
    .set(k)
    .send({ name: `tenant_${label.toLowerCase()}`, language: 'en_US', category: 'UTILITY', body: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] });
  ok(template, 201, 'POST /whatsapp/templates');
  const mailbox = await t.http
    .post('/email/senders')
    .set(k)
    .send({ fromAddress: `tenant-${label.toLowerCase()}@example.com`, displayName: `Tenant ${label}`, smtp: { host: 'smtp.example.com', port: 587, username: 'u', password: `smtp_${label}` } });
  ok(mailbox, 201, 'POST /email/senders');
  const mailTemplate = await t.http.post('/email/templates').set(k).send({ name: `Tenant ${label}`, subject: 'Hello', textBody: 'Hi' });
  ok(mailTemplate, 201, 'POST /email/templates');
  const chat = await t.http.post(`/campaigns/${campaign.id}/chat`).set(k).send({ message: `How is tenant ${label} doing?` });
  ok(chat, 200, 'POST /campaigns/{id}/chat');
  const crm = await t.http.post('/crm/connections').set(k).send({ slug: 'sandbox', credentials: { apiKey: 'valid', webhookSecret: `whsec-${label}` } });
  ok(crm, 201, 'POST /crm/connections');
  const crmImport = await t.http.post(`/campaigns/${campaign.id}/crm-imports`).set(k).send({ connectionId: crm.body.id, segmentId: 'seg-5' });
  const workflow = await t.http
    .post('/workflows')
    .set(k)
    .send({ name: `Journey ${label}`, definition: { nodes: [{ id: 'start', kind: 'start', config: {} }, { id: 'done', kind: 'end', config: {} }], edges: [{ from: 'start', port: 'next', to: 'done' }] } });
  ok(workflow, 201, 'workflow');
  // A run of A's workflow for the CSV campaign's first contact: runs are started by the worker (no
  // worker here), so the row is written directly, with the columns the runs API reads.
  const [run]: Array<{ id: string }> = await t.dataSource.query(
    `INSERT INTO workflow_runs (id, workspace_id, workflow_id, revision, campaign_id, contact_id, status, node_id, visit, started_at, updated_at)
     VALUES (gen_random_uuid(), $1, $2, 1, $3, $4, 'RUNNING', 'start', 1, now(), now()) RETURNING id`,
    [ws.workspaceId, workflow.body.id, campaign.id, contacts[0]],
  );
  ok(crmImport, 202, 'POST /campaigns/{id}/crm-imports');
  const orderRule = await t.http.post(`/crm/connections/${crm.body.id}/order-rules`).set(k).send({ event: 'ORDER_CREATED', templateId: template.body.id });
  ok(orderRule, 201, 'POST /crm/connections/{id}/order-rules');
  const doc = await t.http.post('/documents').set(k).send({ fileName: `tenant-${label}.txt` });
  ok(doc, 201, 'POST /documents');
  ok(await t.http.put(`/documents/${doc.body.id}/file`).set(k).attach('file', Buffer.from(`Tenant ${label} facts.`), `tenant-${label}.txt`), 200, 'PUT /documents/{id}/file');
  ok(await t.http.post(`/documents/${doc.body.id}/provision`).set(k), 202, 'POST /documents/{id}/provision');
  const kb = await t.http.post('/knowledge-bases').set(k).send({ name: `KB ${label}`, documentIds: [doc.body.id] });
  ok(kb, 201, 'POST /knowledge-bases');
  const bot = await t.http.post('/chatbots').set(k).send({ name: `Bot ${label}`, knowledgeBaseIds: [kb.body.id] });
  ok(bot, 201, 'POST /chatbots');
  const dictionary = await t.http.post('/dictionaries').set(k).send({ name: `Terms ${label}`, kind: 'key_terms', entries: [{ term: `Tenant${label}` }] });
  ok(dictionary, 201, 'POST /dictionaries');

  return {
    ws,
    agentId,
    functionId: fn.body.id,
    functionHeaderSecret,
    campaignTypeId: type.body.id,
    campaignId: campaign.id,
    contactIds: contacts,
    phoneNumberId: number.id,
    dncId: dnc.body.id,
    dncPhone,
    callId: call.body.id,
    apiCampaignId: api.id,
    leadId: lead.body.id,
    leadCallId: finished.callId,
    resultId: finished.resultId,
    webhookId: webhookSecretRes.body.id,
    webhookSecret: webhookSecretRes.body.secret,
    deliveryId: deliveryItems[0].id,
    rechargeId: rechargeItems[0].orderId,
    exportId: exported.body.id,
    whatsappSenderId: sender.body.id,
    whatsappTemplateId: template.body.id,
    emailSenderId: mailbox.body.id,
    emailTemplateId: mailTemplate.body.id,
    chatSessionId: chat.body.sessionId,
    crmConnectionId: crm.body.id,
    crmImportId: crmImport.body.id,
    orderRuleId: orderRule.body.id,
    workflowId: workflow.body.id,
    runId: run.id,
    documentId: doc.body.id,
    knowledgeBaseId: kb.body.id,
    chatbotId: bot.body.id,
    dictionaryId: dictionary.body.id,
  };
}

/** Every id of the tenant (and its workspace and key), to look for in another tenant's responses. */
export function tenantIds(x: Tenant): string[] {
  return [
    x.ws.workspaceId,
    x.ws.keyId,
    x.ws.ownerMemberId,
    x.agentId,
    x.functionId,
    x.campaignTypeId,
    x.campaignId,
    ...x.contactIds,
    x.phoneNumberId,
    x.dncId,
    x.callId,
    x.apiCampaignId,
    x.leadId,
    x.leadCallId,
    x.resultId,
    x.webhookId,
    x.deliveryId,
    x.rechargeId,
    x.exportId,
    x.whatsappSenderId,
    x.whatsappTemplateId,
    x.emailSenderId,
    x.emailTemplateId,
    x.chatSessionId,
    x.crmConnectionId,
    x.crmImportId,
    x.orderRuleId,
    x.workflowId,
    x.runId,
    x.documentId,
    x.knowledgeBaseId,
    x.chatbotId,
    x.dictionaryId,
  ];
}
