import { RecordingOutbox } from '../../../platform/src/testing';
import { CampaignDraft } from '../domain/campaign.aggregate';
import { CampaignStatus } from '../domain/campaign-state-machine';
import { aCampaign, InMemoryApiLeadContactStore, InMemoryCampaignRepository, InMemoryContactRepository, inMemoryTimeline } from '../testing';
import { ApiLeadIntake } from './api-lead-intake.service';

const WS = 'ws-1';
const CID = 'c-1';

function setup(status: CampaignStatus = 'RUNNING', draft: Partial<CampaignDraft> = { source: 'API' }) {
  const contacts = new InMemoryContactRepository();
  const campaigns = new InMemoryCampaignRepository(contacts);
  const outbox = new RecordingOutbox();
  const timeline = inMemoryTimeline();
  const intake = new ApiLeadIntake(campaigns, new InMemoryApiLeadContactStore(campaigns, contacts, timeline.recorded), outbox, timeline);
  campaigns.seed(aCampaign({ workspaceId: WS, id: CID, status, draft }));
  return { contacts, campaigns, outbox, intake, timeline };
}

describe('ApiLeadIntake (use case, ports faked)', () => {
  describe('openCampaign', () => {
    it('opens a RUNNING API campaign with its default calling code', async () => {
      const s = setup('RUNNING', { source: 'API', countryCode: '+44' });
      await expect(s.intake.openCampaign(WS, CID)).resolves.toEqual({ campaignId: CID, countryCode: '+44' });
    });

    it('answers campaign_not_found for an unknown or foreign campaign', async () => {
      const s = setup();
      await expect(s.intake.openCampaign(WS, 'nope')).rejects.toMatchObject({ code: 'campaign_not_found' });
      await expect(s.intake.openCampaign('ws-2', CID)).rejects.toMatchObject({ code: 'campaign_not_found' });
    });

    it('answers campaign_not_accepting with reason not_api for a campaign of another source, whatever its status', async () => {
      const s = setup('RUNNING', { source: 'CSV' });
      await expect(s.intake.openCampaign(WS, CID)).rejects.toMatchObject({
        code: 'campaign_not_accepting',
        status: 409,
        options: { extra: { reason: 'not_api' } },
      });
    });

    it.each<CampaignStatus>(['DRAFT', 'PAUSED', 'CREDIT_EXHAUSTED', 'COMPLETED', 'CANCELED'])(
      'answers campaign_not_accepting with reason %s for an API campaign that is not RUNNING',
      async (status) => {
        const s = setup(status);
        await expect(s.intake.openCampaign(WS, CID)).rejects.toMatchObject({ code: 'campaign_not_accepting', options: { extra: { reason: status } } });
      },
    );
  });

  describe('admit', () => {
    it('inserts a PENDING contact with its created event and writes a dispatch job', async () => {
      const s = setup();
      const admitted = await s.intake.admit(WS, CID, { phone: '+14155550100', name: 'Ann', fields: { plan: 'gold' } });
      expect(admitted.created).toBe(true);
      expect(s.contacts.inCampaign(CID)).toMatchObject([
        { id: admitted.contactId, phone: '+14155550100', name: 'Ann', fields: { plan: 'gold' }, status: 'PENDING', attempts: 0 },
      ]);
      expect(s.outbox.jobs).toEqual([{ queue: 'campaigns', name: 'dispatch', payload: { campaignId: CID } }]);
      expect(s.timeline.recorded.typesOf(admitted.contactId)).toEqual(['created']);
    });

    it('binds a phone the campaign already has to its contact, without a second contact or job', async () => {
      const s = setup();
      const first = await s.intake.admit(WS, CID, { phone: '+14155550100', name: 'Ann', fields: {} });
      const again = await s.intake.admit(WS, CID, { phone: '+14155550100', name: 'Other', fields: {} });
      // The contact as the campaign has it: the first push's name, not this one's.
      expect(again).toEqual({ contactId: first.contactId, created: false, contact: expect.objectContaining({ id: first.contactId, name: 'Ann', status: 'PENDING' }) });
      expect(s.contacts.inCampaign(CID)).toHaveLength(1);
      expect(s.outbox.jobs).toHaveLength(1);
      expect(s.timeline.recorded.typesOf(first.contactId)).toEqual(['created']);
    });
  });

  it('exists: any source and status of the workspace’s campaigns, nothing of another workspace', async () => {
    const s = setup('COMPLETED', { source: 'CSV' });
    await expect(s.intake.exists(WS, CID)).resolves.toBe(true);
    await expect(s.intake.exists('ws-2', CID)).resolves.toBe(false);
    await expect(s.intake.exists(WS, 'nope')).resolves.toBe(false);
  });

  it('findContact answers the campaign’s contact only', async () => {
    const s = setup();
    const { contactId } = await s.intake.admit(WS, CID, { phone: '+14155550100', name: null, fields: {} });
    await expect(s.intake.findContact(CID, contactId)).resolves.toMatchObject({ id: contactId, campaignId: CID, status: 'PENDING' });
    await expect(s.intake.findContact('other', contactId)).resolves.toBeNull();
  });
});
