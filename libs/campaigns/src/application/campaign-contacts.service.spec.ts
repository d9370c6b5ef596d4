import { FixedClock, jobsRollback, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { CampaignDraft } from '../domain/campaign.aggregate';
import { CampaignStatus } from '../domain/campaign-state-machine';
import { aCampaign, InMemoryCampaignExecutionRepository, InMemoryCampaignRepository, InMemoryContactRepository, inMemoryTimeline } from '../testing';
import { ContactWaitingReasons } from './contact-waiting.service';
import { CampaignContacts } from './campaign-contacts.service';
import { ContactImporter, ContactInput, ImportSummary } from './contact-importer';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const CID = 'c-1';
const WORKFLOW = '5b3f1c1e-8d2a-4c55-9a0e-2f1b7f7d0a01';

/**
 * Stands in for ContactImporter (its normalisation has its own spec): records what it was asked
 * and inserts the phones as given.
 */
class RecordingImporter implements Pick<ContactImporter, 'importContacts'> {
  readonly calls: Array<{ campaignId: string; inputs: readonly ContactInput[]; options: { countryCode: string | null; removeInvalidRows: boolean } }> = [];

  constructor(private readonly contacts: InMemoryContactRepository) {}

  async importContacts(
    workspaceId: string,
    campaignId: string,
    inputs: readonly ContactInput[],
    options: { countryCode: string | null; removeInvalidRows: boolean },
  ): Promise<ImportSummary> {
    this.calls.push({ campaignId, inputs, options });
    const imported = await this.contacts.insertMany(
      workspaceId,
      campaignId,
      inputs.map((i) => ({ phone: i.phone, altPhones: i.altPhones ?? [], name: i.name ?? null, fields: i.fields ?? {} })),
    );
    return { rows: inputs.length, imported, duplicates: inputs.length - imported, invalid: 0 };
  }
}

function setup(status: CampaignStatus = 'DRAFT', draft: Partial<CampaignDraft> = {}) {
  const clock = new FixedClock(NOW);
  const contacts = new InMemoryContactRepository(() => clock.now());
  const campaigns = new InMemoryCampaignRepository(contacts);
  const importer = new RecordingImporter(contacts);
  const outbox = new RecordingOutbox();
  const uow = new RollbackUnitOfWork([campaigns, contacts, jobsRollback(outbox)]);
  const waiting = new ContactWaitingReasons(new InMemoryCampaignExecutionRepository(campaigns, contacts), clock);
  const service = new CampaignContacts(campaigns, contacts, importer as unknown as ContactImporter, outbox, uow, inMemoryTimeline({ uow, clock }), waiting);
  campaigns.seed(aCampaign({ workspaceId: WS, id: CID, status, draft }));
  return { clock, contacts, campaigns, importer, outbox, uow, service };
}

describe('CampaignContacts (use case, ports faked)', () => {
  describe('add', () => {
    it('imports into a DRAFT campaign with its countryCode and removeInvalidRows, and answers the new count', async () => {
      const s = setup('DRAFT', { countryCode: '+91', removeInvalidRows: true });
      s.contacts.seed(WS, CID, { phone: '+14155550100' });
      const result = await s.service.add(WS, CID, [{ phone: '+14155550100' }, { phone: '+14155550101', name: 'Ann' }]);

      expect(result).toEqual({ rows: 2, imported: 1, duplicates: 1, invalid: 0, contactCount: 2 });
      expect(s.importer.calls).toEqual([
        { campaignId: CID, inputs: [{ phone: '+14155550100' }, { phone: '+14155550101', name: 'Ann' }], options: { countryCode: '+91', removeInvalidRows: true } },
      ]);
      expect(s.contacts.inCampaign(CID).map((c) => c.phone)).toEqual(['+14155550100', '+14155550101']);
      expect(s.uow.runs).toBe(1);
    });

    it.each<CampaignStatus>(['RUNNING', 'PAUSED', 'COMPLETED'])('answers campaign_not_in_draft for a %s campaign without importing', async (status) => {
      const s = setup(status);
      await expect(s.service.add(WS, CID, [{ phone: '+14155550100' }])).rejects.toMatchObject({ code: 'campaign_not_in_draft' });
      expect(s.importer.calls).toHaveLength(0);
      expect(s.contacts.inCampaign(CID)).toHaveLength(0);
    });

    it('answers inbound_campaign_action_not_supported for an INBOUND campaign', async () => {
      const s = setup('DRAFT', { source: 'INBOUND' });
      await expect(s.service.add(WS, CID, [{ phone: '+14155550100' }])).rejects.toMatchObject({ code: 'inbound_campaign_action_not_supported' });
    });

    it('answers campaign_not_found for an unknown or foreign campaign', async () => {
      const s = setup();
      await expect(s.service.add(WS, 'nope', [{ phone: '+14155550100' }])).rejects.toMatchObject({ code: 'campaign_not_found' });
      await expect(s.service.add('ws-2', CID, [{ phone: '+14155550100' }])).rejects.toMatchObject({ code: 'campaign_not_found' });
      expect(s.importer.calls).toHaveLength(0);
    });
  });

  describe('leads', () => {
    it('lists the campaign’s contacts oldest first, paged and filtered by status', async () => {
      const s = setup('RUNNING');
      const a = s.contacts.seed(WS, CID, { phone: '+14155550100', status: 'FAILED' });
      const b = s.contacts.seed(WS, CID, { phone: '+14155550101' });
      const c = s.contacts.seed(WS, CID, { phone: '+14155550102', status: 'FAILED' });
      s.contacts.seed(WS, 'other-campaign', { phone: '+14155550103', status: 'FAILED' });

      const all = await s.service.leads(WS, CID, { offset: 0, limit: 2 });
      expect(all.total).toBe(3);
      expect(all.items.map((i) => i.id)).toEqual([a.id, b.id]);
      const failed = await s.service.leads(WS, CID, { offset: 1, limit: 10, status: 'FAILED' });
      expect(failed).toMatchObject({ total: 2, items: [{ id: c.id, status: 'FAILED' }] });
    });

    it('answers campaign_not_found for an unknown or foreign campaign', async () => {
      const s = setup();
      await expect(s.service.leads('ws-2', CID, { offset: 0, limit: 10 })).rejects.toMatchObject({ code: 'campaign_not_found' });
    });
  });

  describe('retry', () => {
    it('puts a FAILED contact of a RUNNING campaign back to PENDING and writes a dispatch job', async () => {
      const s = setup('RUNNING');
      const failed = s.contacts.seed(WS, CID, { phone: '+14155550100', status: 'FAILED', attempts: 3 });
      const other = s.contacts.seed(WS, CID, { phone: '+14155550101', status: 'FAILED', attempts: 2 });

      await expect(s.service.retry(WS, CID, failed.id)).resolves.toMatchObject({ id: failed.id, status: 'PENDING', attempts: 0 });
      expect((await s.contacts.findById(CID, other.id))?.status).toBe('FAILED');
      expect(s.outbox.named('campaigns', 'dispatch')).toEqual([{ queue: 'campaigns', name: 'dispatch', payload: { campaignId: CID } }]);
    });

    it.each<CampaignStatus>(['PAUSED', 'CREDIT_EXHAUSTED'])('retries on a %s campaign without a dispatch job', async (status) => {
      const s = setup(status);
      const failed = s.contacts.seed(WS, CID, { phone: '+14155550100', status: 'FAILED', attempts: 3 });
      await expect(s.service.retry(WS, CID, failed.id)).resolves.toMatchObject({ status: 'PENDING' });
      expect(s.outbox.jobs).toHaveLength(0);
    });

    it('answers contact_not_found for an unknown contact or another campaign’s (before the status checks)', async () => {
      const s = setup('DRAFT');
      const elsewhere = s.contacts.seed(WS, 'other-campaign', { phone: '+14155550100', status: 'FAILED' });
      await expect(s.service.retry(WS, CID, 'nope')).rejects.toMatchObject({ code: 'contact_not_found' });
      await expect(s.service.retry(WS, CID, elsewhere.id)).rejects.toMatchObject({ code: 'contact_not_found' });
    });

    it.each<CampaignStatus>(['DRAFT', 'COMPLETED', 'CANCELED'])('answers campaign_not_active for a %s campaign', async (status) => {
      const s = setup(status);
      const failed = s.contacts.seed(WS, CID, { phone: '+14155550100', status: 'FAILED' });
      await expect(s.service.retry(WS, CID, failed.id)).rejects.toMatchObject({ code: 'campaign_not_active' });
      expect((await s.contacts.findById(CID, failed.id))?.status).toBe('FAILED');
    });

    it('answers contact_not_failed for a contact that is not FAILED', async () => {
      const s = setup('RUNNING');
      const done = s.contacts.seed(WS, CID, { phone: '+14155550100', status: 'COMPLETED', attempts: 1 });
      await expect(s.service.retry(WS, CID, done.id)).rejects.toMatchObject({ code: 'contact_not_failed' });
      expect(await s.contacts.findById(CID, done.id)).toMatchObject({ status: 'COMPLETED', attempts: 1 });
      expect(s.outbox.jobs).toHaveLength(0);
    });

    it('answers journey_campaign_action_unsupported for a journey campaign', async () => {
      const s = setup('RUNNING', { workflowId: WORKFLOW });
      const failed = s.contacts.seed(WS, CID, { phone: '+14155550100', status: 'FAILED' });
      await expect(s.service.retry(WS, CID, failed.id)).rejects.toMatchObject({ code: 'journey_campaign_action_unsupported' });
    });

    it('answers campaign_not_found for an unknown campaign', async () => {
      const s = setup('RUNNING');
      await expect(s.service.retry(WS, 'nope', 'x')).rejects.toMatchObject({ code: 'campaign_not_found' });
    });
  });
});
