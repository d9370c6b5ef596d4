import { ContactImporter, CrmContactIntake } from '@outreach/campaigns';
import { AppConfig, AppError, isRetryLater } from '@outreach/core';
import { aCampaign, InMemoryCampaignRepository, InMemoryContactRepository, InMemoryUploadStore } from '../../../campaigns/src/testing';
import { codeOf, FixedClock, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { CrmPage, CrmProviderInfo, CrmRecord, CrmSegment } from '../domain/crm-provider-info';
import { InMemoryCrmConnectionRepository, InMemoryCrmImportRepository, InMemoryCrmWebhookEventRepository, PlainCredentialSealer, SandboxCrmProvider } from '../testing';
import { CrmCredentials, CrmProvider, CrmProviders, CrmRateLimited, VerifiedAccount, WebhookDelivery } from './crm.ports';
import { CrmConnections } from './crm-connections.service';
import { CrmImports, importSegment } from './crm-imports.service';

const WS = 'ws-1';

/** A provider whose pages follow a script: 'ok' (two records), '429', '503'. */
class ScriptedProvider extends CrmProvider {
  readonly info: CrmProviderInfo = {
    slug: 'scripted',
    name: 'Scripted',
    authType: 'API_KEY',
    supportsWebhooks: false,
    capabilities: { contacts: true, segments: false, orders: false },
    credentialFields: ['token'],
    fields: ['phone', 'name'],
  };
  readonly defaults = { phone: ['phone'], name: ['name'] };
  readonly maxPageSize = 2;
  script: Array<'ok' | '429' | '503'> = [];
  served = 0;

  async verify(): Promise<VerifiedAccount> {
    return { providerEmail: 'a@b.example', display: {}, missingScopes: [], webhookSecret: null, webhookTopics: { subscribed: [], failed: [] } };
  }
  async segment(): Promise<CrmSegment> {
    throw new AppError('crm_resource_not_found');
  }
  async contacts(_c: CrmCredentials, q: { cursor: string | null }): Promise<CrmPage> {
    const step = this.script.shift() ?? 'ok';
    if (step === '429') throw new CrmRateLimited(5000);
    if (step === '503') throw new AppError('provider_error', { upstreamStatus: 503 });
    const from = Number(q.cursor ?? 0);
    const records: CrmRecord[] = [1, 2].map((k) => ({ id: `r${from + k}`, properties: { phone: `+1415200${String(from + k).padStart(4, '0')}`, name: `R ${from + k}` } }));
    this.served += 1;
    return { records, nextCursor: from + 2 < 4 ? String(from + 2) : null, total: 4 };
  }
  async contact(): Promise<CrmRecord | null> {
    return null;
  }
  readWebhook(): WebhookDelivery {
    return { records: [], recordIds: [] };
  }
}

function setup() {
  const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
  const scripted = new ScriptedProvider();
  const providers = new (class extends CrmProviders {
    all() {
      return [new SandboxCrmProvider(), scripted];
    }
  })();
  const connections = new InMemoryCrmConnectionRepository();
  const imports = new InMemoryCrmImportRepository();
  const events = new InMemoryCrmWebhookEventRepository();
  const contacts = new InMemoryContactRepository();
  const campaigns = new InMemoryCampaignRepository(contacts);
  const outbox = new RecordingOutbox();
  const uow = new RollbackUnitOfWork([]);
  const config = { publicBaseUrl: 'https://o.test', crmImportPageSize: 100, crmRetryBaseMs: 100, crmRetryMaxFailures: 3 } as AppConfig;
  const intake = new CrmContactIntake(campaigns, new ContactImporter(new InMemoryUploadStore(), contacts), outbox);
  const service = new CrmConnections(providers, connections, events, new PlainCredentialSealer(), config, clock);
  return {
    scripted,
    connections,
    imports,
    contacts,
    campaigns,
    outbox,
    service,
    runner: new CrmImports(service, connections, imports, intake, outbox, uow, config, clock),
  };
}

async function retryDelay(work: Promise<unknown>): Promise<number | null> {
  try {
    await work;
    return null;
  } catch (error) {
    if (isRetryLater(error)) return error.delayMs;
    throw error;
  }
}

describe('crm use cases (ports faked)', () => {
  it('connect: unknown_crm, provider_not_api_key, invalid_credentials store nothing; a valid connect stores the credentials sealed', async () => {
    const s = setup();
    expect(await codeOf(s.service.connect(WS, 'nope', {}))).toMatchObject({ code: 'unknown_crm' });
    s.scripted.info.authType = 'OAUTH';
    expect(await codeOf(s.service.connect(WS, 'scripted', { token: 'x' }))).toMatchObject({ code: 'provider_not_api_key' });
    expect(await codeOf(s.service.connect(WS, 'sandbox', { apiKey: 'nope' }))).toMatchObject({ code: 'invalid_credentials' });
    expect(s.connections.rows.size).toBe(0);
    const view = await s.service.connect(WS, 'sandbox', { apiKey: 'valid' });
    expect(view).toMatchObject({ status: 'ACTIVE', hasWebhookSecret: false, webhookUrl: `https://o.test/crm/webhooks/${view.id}`, deferredEventCount: 0 });
    const stored = s.connections.rows.get(view.id)!;
    expect(s.service.open(stored).credentials).toEqual({ apiKey: 'valid' });
    expect(await codeOf(s.service.get('another-ws', view.id))).toMatchObject({ code: 'crm_connection_not_found' });
  });

  it('an import waits out a 429 (its Retry-After, not counted) and 503s (doubling, counted), resumes from its cursor, adds each contact once', async () => {
    const s = setup();
    const campaign = s.campaigns.seed(aCampaign({ workspaceId: WS, draft: { source: 'CRM_MANUAL' } }));
    const conn = await s.service.connect(WS, 'scripted', { token: 't' });
    const job = await s.runner.request(WS, campaign.id, { connectionId: conn.id });
    expect(job.status).toBe('pending');
    expect(s.outbox.jobs.map((j) => j.jobId)).toEqual([`crm-import-${job.id}`]);

    s.scripted.script = ['ok', '429', '503', '503', 'ok'];
    expect(await retryDelay(s.runner.run({ importId: job.id }))).toBe(5000);
    expect(s.imports.rows.get(job.id)).toMatchObject({ status: 'running', cursor: '2', failures: 0, counts: { read: 2, imported: 2 } });
    expect(await retryDelay(s.runner.run({ importId: job.id }))).toBe(100);
    expect(await retryDelay(s.runner.run({ importId: job.id }))).toBe(200);
    expect(s.imports.rows.get(job.id)).toMatchObject({ status: 'running', cursor: '2', failures: 2 });
    expect(await s.runner.run({ importId: job.id })).toEqual({ importId: job.id, status: 'completed' });
    expect(s.imports.rows.get(job.id)).toMatchObject({ status: 'completed', cursor: null, failures: 0, pages: 2, counts: { read: 4, imported: 4, duplicates: 0, invalid: 0 } });
    expect(await s.contacts.count(campaign.id)).toBe(4);
    // A redelivered job finds the import finished and changes nothing.
    expect(await s.runner.run({ importId: job.id })).toEqual({ importId: job.id, status: 'completed' });
    expect(s.scripted.served).toBe(2);
  });

  it('an outage of CRM_RETRY_MAX_FAILURES pages fails the import with the upstream code', async () => {
    const s = setup();
    const campaign = s.campaigns.seed(aCampaign({ workspaceId: WS, draft: { source: 'CRM_MANUAL' } }));
    const conn = await s.service.connect(WS, 'scripted', { token: 't' });
    const job = await s.runner.request(WS, campaign.id, { connectionId: conn.id });
    s.scripted.script = ['503', '503', '503'];
    expect(await retryDelay(s.runner.run({ importId: job.id }))).toBe(100);
    expect(await retryDelay(s.runner.run({ importId: job.id }))).toBe(200);
    expect(await s.runner.run({ importId: job.id })).toEqual({ importId: job.id, status: 'failed' });
    expect(s.imports.rows.get(job.id)).toMatchObject({ status: 'failed', error: 'provider_error' });
    expect(await s.runner.hasInProgress(WS, campaign.id)).toBe(false);
  });

  it('imports need DRAFT, or a live CRM_WEBHOOK campaign (400 campaign_not_in_draft)', async () => {
    const s = setup();
    const conn = await s.service.connect(WS, 'scripted', { token: 't' });
    const running = s.campaigns.seed(aCampaign({ workspaceId: WS, status: 'RUNNING' }));
    expect(await codeOf(s.runner.request(WS, running.id, { connectionId: conn.id }))).toMatchObject({ code: 'campaign_not_in_draft' });
    const live = s.campaigns.seed(aCampaign({ workspaceId: WS, status: 'PAUSED', draft: { source: 'CRM_WEBHOOK', defaultCrmConnectionId: conn.id } }));
    expect((await s.runner.request(WS, live.id, { connectionId: conn.id })).status).toBe('pending');
    expect(s.imports.rows.size).toBe(1);
  });

  it("importSegment: the named segment, null for all contacts, else the campaign's default when the import reads its default CRM", () => {
    const defaults = { connectionId: 'c1', segmentId: 'seg-7' };
    expect(importSegment('seg-3', defaults, 'c1')).toBe('seg-3');
    expect(importSegment(null, defaults, 'c1')).toBeNull();
    expect(importSegment(undefined, defaults, 'c1')).toBe('seg-7');
    expect(importSegment(undefined, defaults, 'c2')).toBeNull();
    expect(importSegment(undefined, { connectionId: null, segmentId: 'seg-7' }, 'c2')).toBe('seg-7');
    expect(importSegment(undefined, { connectionId: 'c1', segmentId: null }, 'c1')).toBeNull();
  });
});
