import { inMemoryPhoneNumberDirectory } from '../../../telephony/src/testing';
import { CampaignStatus } from '../domain/campaign-state-machine';
import { aCampaign, InMemoryCampaignPhoneNumbers, InMemoryCampaignRepository } from '../testing';
import { CampaignPhoneNumbers } from './campaign-phone-numbers.service';
import { RollbackUnitOfWork } from '../../../platform/src/testing';

const WS = 'ws-1';
const OTHER_WS = 'ws-2';
const CID = 'c-1';

function setup(status: CampaignStatus = 'DRAFT') {
  const campaigns = new InMemoryCampaignRepository();
  const attached = new InMemoryCampaignPhoneNumbers();
  const phones = inMemoryPhoneNumberDirectory();
  const uow = new RollbackUnitOfWork([campaigns, attached]);
  const service = new CampaignPhoneNumbers(campaigns, attached, phones.directory, uow);
  campaigns.seed(aCampaign({ workspaceId: WS, id: CID, status }));
  phones.numbers.add({ id: 'n-1', workspaceId: WS, e164: '+14155550100' });
  phones.numbers.add({ id: 'n-2', workspaceId: WS, e164: '+14155550101' });
  phones.numbers.add({ id: 'n-off', workspaceId: WS, e164: '+14155550102', carrier: 'acme', carrierEnabled: false });
  phones.numbers.add({ id: 'n-foreign', workspaceId: OTHER_WS, e164: '+14155550103' });
  return { campaigns, attached, phones, uow, service };
}

describe('CampaignPhoneNumbers (use case, ports faked)', () => {
  it('attaches numbers (idempotently) and answers the campaign’s numbers', async () => {
    const s = setup();
    await s.service.attach(WS, CID, 'n-1');
    const numbers = await s.service.attach(WS, CID, 'n-2');
    expect(numbers.map((n) => n.e164)).toEqual(['+14155550100', '+14155550101']);
    await expect(s.service.attach(WS, CID, 'n-1')).resolves.toHaveLength(2);
    expect(await s.attached.listIds(CID)).toEqual(['n-1', 'n-2']);
  });

  it('attaches to a RUNNING campaign too', async () => {
    const s = setup('RUNNING');
    await expect(s.service.attach(WS, CID, 'n-1')).resolves.toMatchObject([{ id: 'n-1' }]);
  });

  it('answers phone_number_not_in_workspace for an unknown number, another workspace’s, or one on a disabled carrier', async () => {
    const s = setup();
    for (const id of ['n-unknown', 'n-foreign', 'n-off']) {
      await expect(s.service.attach(WS, CID, id)).rejects.toMatchObject({ code: 'phone_number_not_in_workspace' });
    }
    expect(await s.attached.listIds(CID)).toEqual([]);
  });

  it('answers campaign_not_found for an unknown or foreign campaign (attach, list, detach)', async () => {
    const s = setup();
    await expect(s.service.attach(OTHER_WS, CID, 'n-foreign')).rejects.toMatchObject({ code: 'campaign_not_found' });
    await expect(s.service.list(WS, 'nope')).rejects.toMatchObject({ code: 'campaign_not_found' });
    await expect(s.service.detach(WS, 'nope', 'n-1')).rejects.toMatchObject({ code: 'campaign_not_found' });
  });

  it('lists attached numbers with whether their carrier is enabled', async () => {
    const s = setup();
    await s.attached.attach(CID, 'n-off'); // attached before the operator switched the carrier off
    await s.attached.attach(CID, 'n-1');
    const numbers = await s.service.list(WS, CID);
    expect(numbers.map((n) => [n.id, n.carrierEnabled])).toEqual([
      ['n-off', false],
      ['n-1', true],
    ]);
  });

  it.each<CampaignStatus>(['DRAFT', 'PAUSED', 'CREDIT_EXHAUSTED', 'COMPLETED', 'CANCELED'])('detaches from a %s campaign', async (status) => {
    const s = setup(status);
    await s.attached.attach(CID, 'n-1');
    await s.attached.attach(CID, 'n-2');
    await expect(s.service.detach(WS, CID, 'n-1')).resolves.toMatchObject([{ id: 'n-2' }]);
    expect(await s.attached.listIds(CID)).toEqual(['n-2']);
  });

  it('answers campaign_running_no_remove while RUNNING, keeping the number', async () => {
    const s = setup('RUNNING');
    await s.attached.attach(CID, 'n-1');
    await expect(s.service.detach(WS, CID, 'n-1')).rejects.toMatchObject({ code: 'campaign_running_no_remove' });
    expect(await s.attached.listIds(CID)).toEqual(['n-1']);
  });

  it('answers phone_number_not_found for a number that is not attached', async () => {
    const s = setup();
    await expect(s.service.detach(WS, CID, 'n-2')).rejects.toMatchObject({ code: 'phone_number_not_found' });
  });
});
