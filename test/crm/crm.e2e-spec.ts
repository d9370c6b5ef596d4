import { randomUUID } from 'node:crypto';
import { createActiveAgent } from '../support/agent-fixtures';
import { attachNumber, createCampaign, credit, expectError, readCampaign } from '../campaigns/campaign-helpers';
import { startWorker } from '../engine/engine-harness';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { waitFor } from '../support/tcp-proxy';
import { WorkerApp } from '../support/worker-app';
import { CONNECTION_FIELDS, connectSandbox, count, postSandboxWebhook, sandboxRecords, sandboxWebhook } from './crm-helpers';

/*
 * Issue 14 on the real app, database and worker with the sandbox CRM (DESIGN §14.3; decisions.md
 * 31): providers, connections, mappings, imports (5,000 records, then the campaign runs), inbound
 * webhooks (500 signed events with 100 duplicates → 400 contacts; deferred until a campaign runs),
 * and every crm code the sandbox can provoke. HubSpot, Shopify and upstream failures are in
 * crm-providers.e2e-spec.ts against local stub servers.
 */
process.env.PUBLIC_BASE_URL = 'https://outreach.test';
process.env.CRM_WEBHOOK_DRAIN_MS = '100';
process.env.CRM_IMPORT_PAGE_SIZE = '250';

const UNKNOWN = '3f1c2b8e-58a1-4b3c-9b2e-7d51c1d0e9a4';

describe('CRM module (sandbox CRM)', () => {
  let t: TestApp;
  let worker: WorkerApp | null = null;
  let ws: Seeded;

  const http = () => t.http;
  const importsOf = (campaignId: string) => count(t, `SELECT count(*)::int AS n FROM crm_imports WHERE campaign_id = $1`, [campaignId]);
  const contactsOf = (campaignId: string) => count(t, `SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [campaignId]);

  async function webhookCampaign(connectionId: string): Promise<string> {
    const agent = await createActiveAgent(t, ws.key);
    const c = await createCampaign(t, ws.key, {
      source: 'CRM_WEBHOOK',
      defaultCrmConnectionId: connectionId,
      agentId: agent.id,
      timezone: 'UTC',
      dailyWindowStart: '00:00',
      dailyWindowEnd: '00:00',
      recipientHours: 'off', // the +1415 contacts' 08:00–21:00 would stop the dialling at night in California
    });
    await attachNumber(t, ws.key, ws.workspaceId, c.id);
    return c.id;
  }

  async function start(campaignId: string): Promise<void> {
    await credit(t, ws.workspaceId, 1_000_000);
    const res = await http().post(`/campaigns/${campaignId}/start`).set(bearer(ws.key)).send({});
    expect(res.status).toBe(200);
  }

  async function awaitImport(campaignId: string, importId: string, status = 'completed') {
    return waitFor(
      `import ${importId} ${status}`,
      async () => {
        const res = await http().get(`/campaigns/${campaignId}/crm-imports/${importId}`).set(bearer(ws.key));
        return res.body.status === status || res.body.status === 'failed' ? res.body : null;
      },
      60_000,
      100,
    );
  }

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
  });

  beforeEach(async () => {
    ws = await t.seed({ features: ['crm'] });
  });

  afterAll(async () => {
    await worker?.close();
    await t.close();
  });

  describe('providers and connections', () => {
    it('GET /crm/providers: sandbox, HubSpot, Shopify (API_KEY) and Pipedrive (OAUTH)', async () => {
      const res = await http().get('/crm/providers').set(bearer(ws.key));
      expect(res.status).toBe(200);
      expect(res.body.providers.map((p: { slug: string; authType: string }) => [p.slug, p.authType])).toEqual([
        ['sandbox', 'API_KEY'],
        ['hubspot', 'API_KEY'],
        ['shopify', 'API_KEY'],
        ['pipedrive', 'OAUTH'],
      ]);
      expect(res.body.providers[2]).toMatchObject({ supportsWebhooks: true, capabilities: { contacts: true, segments: true, orders: true } });
      expect(res.body.providers[3]).toMatchObject({ supportsWebhooks: false });
    });

    it('the crm feature off: 403 feature_not_available on every CRM route', async () => {
      const off = await t.seed({ features: [] });
      expectError(await http().get('/crm/providers').set(bearer(off.key)), 403, 'feature_not_available');
      expectError(await http().post('/crm/connections').set(bearer(off.key)).send({ slug: 'sandbox', credentials: { apiKey: 'valid' } }), 403, 'feature_not_available');
      expect(await count(t, `SELECT count(*)::int AS n FROM crm_connections WHERE workspace_id = $1`, [off.workspaceId])).toBe(0);
    });

    it('connect refusals: 404 unknown_crm, 400 provider_not_api_key, 400 invalid_credentials, 400 invalid_body; nothing stored', async () => {
      const post = (body: unknown) => http().post('/crm/connections').set(bearer(ws.key)).send(body as object);
      expectError(await post({ slug: 'salesforce-classic', credentials: { apiKey: 'valid' } }), 404, 'unknown_crm');
      expectError(await post({ slug: 'pipedrive', credentials: { accessToken: 'x' } }), 400, 'provider_not_api_key');
      expectError(await post({ slug: 'sandbox', credentials: { apiKey: 'wrong' } }), 400, 'invalid_credentials');
      expectError(await post({ slug: 'sandbox', credentials: { apiKey: 7 } }), 400, 'invalid_body');
      expectError(await post({ slug: 'sandbox', credentials: { apiKey: 'valid' }, extra: 1 }), 400, 'invalid_body');
      expect(await count(t, `SELECT count(*)::int AS n FROM crm_connections WHERE workspace_id = $1`, [ws.workspaceId])).toBe(0);
    });

    it('an OAuth connect is a person’s action: API keys get 403 api_key_not_allowed', async () => {
      expectError(await http().post('/crm/oauth/pipedrive').set(bearer(ws.key)).send({}), 403, 'api_key_not_allowed');
    });

    it('connect, list (exactly the contract’s fields), get, disconnect; credentials never answered, stored sealed', async () => {
      const secret = `whsec-${randomUUID()}`;
      const res = await http().post('/crm/connections').set(bearer(ws.key)).send({ slug: 'sandbox', credentials: { apiKey: 'valid', webhookSecret: secret } });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(CONNECTION_FIELDS);
      expect(res.body).toMatchObject({
        slug: 'sandbox',
        name: 'Sandbox CRM',
        status: 'ACTIVE',
        providerEmail: 'owner@sandbox-crm.example',
        hasWebhookSecret: true,
        webhookUrl: `https://outreach.test/crm/webhooks/${res.body.id}`,
        deferredEventCount: 0,
        missingScopes: [],
        webhookTopics: { subscribed: ['contact.created', 'contact.updated'], failed: [] },
      });
      expect(JSON.stringify(res.body)).not.toContain(secret);
      const [row] = await t.dataSource.query(`SELECT sealed_credentials FROM crm_connections WHERE id = $1`, [res.body.id]);
      expect(row.sealed_credentials).not.toContain(secret);
      expect(row.sealed_credentials).not.toContain('valid');

      const list = await http().get('/crm/connections').set(bearer(ws.key));
      expect(list.status).toBe(200);
      expect(list.body.connections).toEqual([res.body]);
      expect(Object.keys(list.body.connections[0]).sort()).toEqual(CONNECTION_FIELDS);
      expect((await http().get(`/crm/connections/${res.body.id}`).set(bearer(ws.key))).body).toEqual(res.body);

      const other = await t.seed({ features: ['crm'] });
      expectError(await http().get(`/crm/connections/${res.body.id}`).set(bearer(other.key)), 404, 'crm_connection_not_found');
      expectError(await http().get(`/crm/connections/not-a-uuid`).set(bearer(ws.key)), 404, 'crm_connection_not_found');
      expectError(await http().delete(`/crm/connections/${res.body.id}`).set(bearer(other.key)), 404, 'crm_connection_not_found');
      expect((await http().get('/crm/connections').set(bearer(other.key))).body).toEqual({ connections: [] });

      expect((await http().delete(`/crm/connections/${res.body.id}`).set(bearer(ws.key))).status).toBe(204);
      expect((await http().get('/crm/connections').set(bearer(ws.key))).body).toEqual({ connections: [] });
      expect((await http().get(`/crm/connections/${res.body.id}`).set(bearer(ws.key))).body.status).toBe('DISCONNECTED');
      expectError(await http().delete(`/crm/connections/${res.body.id}`).set(bearer(ws.key)), 400, 'crm_connection_not_active');
      expectError(
        await http().put(`/crm/connections/${res.body.id}/mappings`).set(bearer(ws.key)).send({ mappings: [] }),
        400,
        'crm_connection_not_active',
      );
    });

    it('field mappings: 400 invalid_mapping_source, 400 invalid_mapping_target (nothing changes), then replaced', async () => {
      const { connection } = await connectSandbox(t, ws.key);
      const put = (mappings: unknown) => http().put(`/crm/connections/${connection.id}/mappings`).set(bearer(ws.key)).send({ mappings });
      expectError(await put([{ source: 'shoe_size', target: 'fields.shoe' }]), 400, 'invalid_mapping_source');
      expectError(await put([{ source: 'company', target: 'email' }]), 400, 'invalid_mapping_target');
      expectError(await put([{ source: 'company', target: 'fields.bad key' }]), 400, 'invalid_mapping_target');
      expectError(await put([{ source: 'phone', target: 'phone' }, { source: 'company', target: 'phone' }]), 400, 'invalid_mapping_target');
      expect((await http().get(`/crm/connections/${connection.id}/mappings`).set(bearer(ws.key))).body).toEqual({ mappings: [] });
      const mappings = [
        { source: 'phone', target: 'phone' },
        { source: 'firstname', target: 'name' },
        { source: 'company', target: 'fields.company' },
      ];
      const ok = await put(mappings);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ mappings });
      expect((await http().get(`/crm/connections/${connection.id}/mappings`).set(bearer(ws.key))).body).toEqual({ mappings });
      expectError(await http().put(`/crm/connections/${UNKNOWN}/mappings`).set(bearer(ws.key)).send({ mappings }), 404, 'crm_connection_not_found');
    });

    it('segments are asked of the CRM: seg-<n> holds n contacts, anything else 404 crm_resource_not_found', async () => {
      const { connection } = await connectSandbox(t, ws.key);
      const res = await http().get(`/crm/connections/${connection.id}/segments/seg-5000`).set(bearer(ws.key));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: 'seg-5000', size: 5000 });
      expectError(await http().get(`/crm/connections/${connection.id}/segments/vip`).set(bearer(ws.key)), 404, 'crm_resource_not_found');
    });

    it('campaign create: a CRM_WEBHOOK campaign names an ACTIVE connection of the workspace (400 crm_connection_not_found otherwise)', async () => {
      const { connection } = await connectSandbox(t, ws.key);
      const create = (defaultCrmConnectionId: string) =>
        http().post('/v1/campaigns').set(bearer(ws.key)).send({ name: `W ${randomUUID()}`, channel: 'VOICE', source: 'CRM_WEBHOOK', defaultCrmConnectionId });
      expectError(await create(UNKNOWN), 400, 'crm_connection_not_found');
      const other = await t.seed({ features: ['crm'] });
      const foreign = await connectSandbox(t, other.key);
      expectError(await create(foreign.connection.id), 400, 'crm_connection_not_found');
      expect((await create(connection.id)).status).toBe(201);
      await http().delete(`/crm/connections/${connection.id}`).set(bearer(ws.key)).expect(204);
      expectError(await create(connection.id), 400, 'crm_connection_not_found');
    });
  });

  describe('imports before any worker runs', () => {
    it('refusals: 404 campaign_not_found, 404 crm_connection_not_found, 400 campaign_not_in_draft, 400 crm_connection_not_active, 404 crm_resource_not_found; nothing stored', async () => {
      const { connection } = await connectSandbox(t, ws.key);
      const campaign = await createCampaign(t, ws.key, { source: 'CRM_MANUAL' });
      const post = (campaignId: string, body: object) => http().post(`/campaigns/${campaignId}/crm-imports`).set(bearer(ws.key)).send(body);
      expectError(await post(UNKNOWN, { connectionId: connection.id }), 404, 'campaign_not_found');
      expectError(await post(campaign.id, { connectionId: UNKNOWN }), 404, 'crm_connection_not_found');
      expectError(await post(campaign.id, { connectionId: connection.id, segmentId: 'vip' }), 404, 'crm_resource_not_found');
      expectError(await post(campaign.id, { connectionId: connection.id, extra: true }), 400, 'invalid_body');

      const stopped = await createCampaign(t, ws.key, { source: 'CRM_MANUAL' });
      await http().post(`/campaigns/${stopped.id}/stop`).set(bearer(ws.key)).expect(200);
      expectError(await post(stopped.id, { connectionId: connection.id }), 400, 'campaign_not_in_draft');

      const gone = await connectSandbox(t, ws.key);
      await http().delete(`/crm/connections/${gone.connection.id}`).set(bearer(ws.key)).expect(204);
      expectError(await post(campaign.id, { connectionId: gone.connection.id }), 400, 'crm_connection_not_active');

      expect(await importsOf(campaign.id)).toBe(0);
      expect(await importsOf(stopped.id)).toBe(0);
      expect(await contactsOf(campaign.id)).toBe(0);
      expectError(await http().get(`/campaigns/${campaign.id}/crm-imports/${UNKNOWN}`).set(bearer(ws.key)), 404, 'crm_import_not_found');
      expectError(await http().get(`/campaigns/${UNKNOWN}/crm-imports/${UNKNOWN}`).set(bearer(ws.key)), 404, 'campaign_not_found');
    });

    it('a pending import blocks campaign delete (409 campaign_delete_import_in_progress, from the crm module)', async () => {
      const { connection } = await connectSandbox(t, ws.key);
      const campaign = await createCampaign(t, ws.key, { source: 'CRM_MANUAL' });
      const res = await http().post(`/campaigns/${campaign.id}/crm-imports`).set(bearer(ws.key)).send({ connectionId: connection.id, segmentId: 'seg-10' });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: 'pending', progress: 0, total: 10, read: 0, imported: 0, segmentId: 'seg-10' });
      expectError(await http().delete(`/campaigns/${campaign.id}`).set(bearer(ws.key)), 409, 'campaign_delete_import_in_progress');
      expect((await readCampaign(t, ws.key, campaign.id)).status).toBe('DRAFT');
      // Finished by the worker of the next block; then the campaign can go.
      pendingDelete = { campaignId: campaign.id, importId: res.body.id, key: ws.key };
    });
  });

  let pendingDelete: { campaignId: string; importId: string; key: string } | null = null;

  describe('with the worker', () => {
    beforeAll(async () => {
      worker = await startWorker();
    });

    it('the pending import completes, and the campaign can be deleted', async () => {
      const p = pendingDelete!;
      const done = await waitFor('pending import done', async () => {
        const res = await http().get(`/campaigns/${p.campaignId}/crm-imports/${p.importId}`).set(bearer(p.key));
        return res.body.status === 'completed' ? res.body : null;
      });
      expect(done).toMatchObject({ read: 10, imported: 10, progress: 100 });
      expect((await http().delete(`/campaigns/${p.campaignId}`).set(bearer(p.key))).status).toBe(204);
    });

    it('imports a 5,000-record segment (streamed page by page, mappings applied), then the campaign runs', async () => {
      const { connection } = await connectSandbox(t, ws.key);
      await http()
        .put(`/crm/connections/${connection.id}/mappings`)
        .set(bearer(ws.key))
        .send({ mappings: [{ source: 'plan', target: 'fields.plan' }, { source: 'city', target: 'fields.city' }] })
        .expect(200);
      const agent = await createActiveAgent(t, ws.key);
      const campaign = await createCampaign(t, ws.key, { source: 'CRM_MANUAL', agentId: agent.id, timezone: 'UTC', dailyWindowStart: '00:00', dailyWindowEnd: '00:00', recipientHours: 'off' });
      await attachNumber(t, ws.key, ws.workspaceId, campaign.id);
      const res = await http().post(`/campaigns/${campaign.id}/crm-imports`).set(bearer(ws.key)).send({ connectionId: connection.id, segmentId: 'seg-5000' });
      expect(res.status).toBe(202);
      const done = await awaitImport(campaign.id, res.body.id);
      expect(done).toMatchObject({ status: 'completed', progress: 100, total: 5000, read: 5000, imported: 5000, duplicates: 0, invalid: 0, pages: 20, error: null });
      expect(await contactsOf(campaign.id)).toBe(5000);
      const [first] = await t.dataSource.query(`SELECT phone, name, fields FROM campaign_contacts WHERE campaign_id = $1 AND fields->>'crm_record_id' = 'sbx-7'`, [campaign.id]);
      expect(first).toEqual({ phone: '+14152000007', name: 'Lead 7', fields: { plan: 'pro', city: 'Chicago', crm_record_id: 'sbx-7' } });

      // The same segment again: every record is a duplicate, nothing is added twice.
      const again = await http().post(`/campaigns/${campaign.id}/crm-imports`).set(bearer(ws.key)).send({ connectionId: connection.id, segmentId: 'seg-100' });
      expect(await awaitImport(campaign.id, again.body.id)).toMatchObject({ read: 100, imported: 0, duplicates: 100 });
      expect(await contactsOf(campaign.id)).toBe(5000);

      await start(campaign.id);
      await waitFor(
        'the campaign to dial 25 imported contacts to the end',
        async () => (await count(t, `SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1 AND status = 'COMPLETED'`, [campaign.id])) >= 25,
        60_000,
        200,
      );
      await http().post(`/campaigns/${campaign.id}/stop`).set(bearer(ws.key)).expect(200);
    }, 180_000);

    it('a live CRM_WEBHOOK campaign takes imports too (DRAFT rule’s exception)', async () => {
      const { connection } = await connectSandbox(t, ws.key);
      const campaignId = await webhookCampaign(connection.id);
      await start(campaignId);
      const res = await http().post(`/campaigns/${campaignId}/crm-imports`).set(bearer(ws.key)).send({ connectionId: connection.id, segmentId: 'seg-30' });
      expect(res.status).toBe(202);
      expect(await awaitImport(campaignId, res.body.id)).toMatchObject({ imported: 30 });
      await http().post(`/campaigns/${campaignId}/stop`).set(bearer(ws.key)).expect(200);
    });

    it('500 signed webhook events (100 of them duplicates) into a RUNNING CRM_WEBHOOK campaign → exactly 400 contacts', async () => {
      const { connection, webhookSecret } = await connectSandbox(t, ws.key);
      const campaignId = await webhookCampaign(connection.id);
      await start(campaignId);
      const unique = sandboxRecords(1001, 1400);
      const deliveries = [...unique.map((r) => [r]), ...unique.slice(0, 100).map((r) => [r])];
      let delivered = 0;
      let duplicates = 0;
      for (let i = 0; i < deliveries.length; i += 10) {
        const answers = await Promise.all(deliveries.slice(i, i + 10).map((records) => postSandboxWebhook(t, connection.id, webhookSecret, records)));
        for (const a of answers) {
          expect(a.status).toBe(200);
          delivered += a.body.delivered;
          duplicates += a.body.duplicates;
        }
      }
      expect({ delivered, duplicates }).toEqual({ delivered: 400, duplicates: 100 });
      expect(await contactsOf(campaignId)).toBe(400);
      expect(await count(t, `SELECT count(*)::int AS n FROM crm_webhook_events WHERE connection_id = $1`, [connection.id])).toBe(400);
      await http().post(`/campaigns/${campaignId}/stop`).set(bearer(ws.key)).expect(200);
    }, 240_000);

    it('bad signature → 401 unauthorized, nothing stored; unknown connection 404; Pipedrive 400 webhooks_not_supported; disconnected 400', async () => {
      const { connection, webhookSecret } = await connectSandbox(t, ws.key);
      const records = sandboxRecords(1, 2);
      const wrong = sandboxWebhook('not-the-secret', records).signature;
      expectError(await postSandboxWebhook(t, connection.id, webhookSecret, records, wrong), 401, 'unauthorized');
      expectError(
        await t.http.post(`/crm/webhooks/${connection.id}`).set('content-type', 'application/json').send(sandboxWebhook(webhookSecret, records).body),
        401,
        'unauthorized',
      );
      expect(await count(t, `SELECT count(*)::int AS n FROM crm_webhook_events WHERE connection_id = $1`, [connection.id])).toBe(0);
      expectError(await postSandboxWebhook(t, UNKNOWN, webhookSecret, records), 404, 'crm_connection_not_found');

      // A Pipedrive connection, as the operator's OAuth connect stores it (its webhooks carry no signature).
      const pipedriveId = randomUUID();
      await t.dataSource.query(
        `INSERT INTO crm_connections (id, workspace_id, slug, status, provider_email, sealed_credentials, has_webhook_secret, webhook_topics, connected_at)
         VALUES ($1, $2, 'pipedrive', 'ACTIVE', 'owner@pipedrive.example', '', false, '{"subscribed":[],"failed":[],"checkedAt":"2026-01-01T00:00:00.000Z"}', now())`,
        [pipedriveId, ws.workspaceId],
      );
      expectError(await postSandboxWebhook(t, pipedriveId, webhookSecret, records), 400, 'webhooks_not_supported');

      await http().delete(`/crm/connections/${connection.id}`).set(bearer(ws.key)).expect(204);
      expectError(await postSandboxWebhook(t, connection.id, webhookSecret, records), 400, 'crm_connection_not_active');
      expect(await count(t, `SELECT count(*)::int AS n FROM crm_webhook_events WHERE workspace_id = $1`, [ws.workspaceId])).toBe(0);
    });

    it('with no live campaign, events are kept (deferredEventCount) and drained when one starts; duplicates still count once', async () => {
      const { connection, webhookSecret } = await connectSandbox(t, ws.key);
      const campaignId = await webhookCampaign(connection.id);
      const first = await postSandboxWebhook(t, connection.id, webhookSecret, sandboxRecords(2001, 2020));
      expect(first.body).toEqual({ received: 20, delivered: 0, deferred: 20, duplicates: 0, invalid: 0, orders: 0, notifications: 0 });
      const again = await postSandboxWebhook(t, connection.id, webhookSecret, sandboxRecords(2011, 2025));
      expect(again.body).toEqual({ received: 15, delivered: 0, deferred: 5, duplicates: 10, invalid: 0, orders: 0, notifications: 0 });
      const noPhone = await postSandboxWebhook(t, connection.id, webhookSecret, [{ id: 'sbx-x', properties: { firstname: 'No', phone: null } }]);
      expect(noPhone.body).toMatchObject({ invalid: 1, deferred: 0 });
      expect((await http().get(`/crm/connections/${connection.id}`).set(bearer(ws.key))).body.deferredEventCount).toBe(25);
      expect(await contactsOf(campaignId)).toBe(0);

      await start(campaignId);
      await waitFor('deferred events drained', async () => (await contactsOf(campaignId)) === 25, 15_000, 100);
      expect((await http().get(`/crm/connections/${connection.id}`).set(bearer(ws.key))).body.deferredEventCount).toBe(0);
      const live = await postSandboxWebhook(t, connection.id, webhookSecret, sandboxRecords(2020, 2026));
      expect(live.body).toEqual({ received: 7, delivered: 1, deferred: 0, duplicates: 6, invalid: 0, orders: 0, notifications: 0 });
      expect(await contactsOf(campaignId)).toBe(26);
      await http().post(`/campaigns/${campaignId}/stop`).set(bearer(ws.key)).expect(200);
    });
  });
});
