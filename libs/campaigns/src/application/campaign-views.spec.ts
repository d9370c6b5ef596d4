import { InMemoryAgentDirectory } from '../../../agents/src/testing';
import { FixedClock } from '../../../platform/src/testing';
import { CampaignType } from '../domain/campaign-type.aggregate';
import { DEFAULT_CAMPAIGN_SETTINGS } from '../domain/campaign-settings';
import { PLATFORM_CAMPAIGN_TYPES } from '../domain/platform-campaign-types';
import { aCampaign, FIXTURE_NOW, InMemoryCampaignRepository, InMemoryCampaignTypeRepository, InMemoryContactRepository } from '../testing';
import { CampaignTypesService } from './campaign-types.service';
import { CampaignViews } from './campaign-views';

const WS = 'ws-1';
const OTHER_WS = 'ws-2';
const PLATFORM = PLATFORM_CAMPAIGN_TYPES[1]; // appointment_at, appointment_type

function setup() {
  const clock = new FixedClock(FIXTURE_NOW);
  const contacts = new InMemoryContactRepository();
  const campaigns = new InMemoryCampaignRepository(contacts);
  const types = new InMemoryCampaignTypeRepository();
  const agents = new InMemoryAgentDirectory();
  const views = new CampaignViews(campaigns, new CampaignTypesService(types, clock), agents);
  agents.add({ id: 'agent-1', workspaceId: WS, name: 'Ava' });
  return { contacts, campaigns, types, agents, views };
}

describe('CampaignViews (use case, ports faked)', () => {
  it('renders a campaign with its agent’s name, type, effective keys, settings and contact count', async () => {
    const s = setup();
    s.campaigns.seed(
      aCampaign({
        workspaceId: WS,
        id: 'c-1',
        status: 'RUNNING',
        startedAt: new Date('2026-11-21T11:00:00Z'),
        draft: {
          name: 'Spring',
          agentId: 'agent-1',
          campaignTypeId: PLATFORM.id,
          customExtractionKeys: [{ name: 'appointment_type', type: 'integer', description: 'override' }, { name: 'notes', type: 'string', description: 'n' }],
          retryCount: 5,
        },
      }),
    );
    s.contacts.seed(WS, 'c-1', { phone: '+14155550100' });
    s.contacts.seed(WS, 'c-1', { phone: '+14155550101' });

    const view = await s.views.get(WS, 'c-1');
    expect(view).toMatchObject({
      id: 'c-1',
      name: 'Spring',
      status: 'RUNNING',
      agentId: 'agent-1',
      agentName: 'Ava',
      campaignTypeId: PLATFORM.id,
      campaignTypeName: PLATFORM.name,
      startedAt: '2026-11-21T11:00:00.000Z',
      endedAt: null,
      createdAt: FIXTURE_NOW.toISOString(),
      contactCount: 2,
      receivedCalls: 0,
      retryCount: 5,
      dailyWindowStart: DEFAULT_CAMPAIGN_SETTINGS.dailyWindowStart,
    });
    expect(view.effectiveExtractionKeys).toEqual([
      { name: 'appointment_at', type: 'datetime', description: PLATFORM.extractionKeys[0].description },
      { name: 'appointment_type', type: 'integer', description: 'override' },
      { name: 'notes', type: 'string', description: 'n' },
    ]);
  });

  it('answers campaign_not_found for an unknown or another workspace’s campaign', async () => {
    const s = setup();
    s.campaigns.seed(aCampaign({ workspaceId: OTHER_WS, id: 'c-foreign' }));
    await expect(s.views.get(WS, 'c-foreign')).rejects.toMatchObject({ code: 'campaign_not_found' });
    await expect(s.views.get(WS, 'nope')).rejects.toMatchObject({ code: 'campaign_not_found' });
  });

  it('renders null names for an agent that is gone and a type it cannot see', async () => {
    const s = setup();
    s.types.seed(CampaignType.create({ id: 'type-foreign', workspaceId: OTHER_WS, name: 'Theirs', extractionKeys: [{ name: 'k', type: 'string', description: 'd' }], now: FIXTURE_NOW }));
    s.campaigns.seed(aCampaign({ workspaceId: WS, id: 'c-1', agentId: 'agent-gone', campaignTypeId: 'type-foreign' }));
    const view = await s.views.get(WS, 'c-1');
    expect(view).toMatchObject({ agentName: null, campaignTypeName: null, effectiveExtractionKeys: [], contactCount: 0 });
  });

  it('keeps the name and keys of an archived type the campaign uses', async () => {
    const s = setup();
    const type = CampaignType.create({ id: 'type-own', workspaceId: WS, name: 'Mine', extractionKeys: [{ name: 'k', type: 'string', description: 'd' }], now: FIXTURE_NOW });
    type.archive(FIXTURE_NOW, WS);
    s.types.seed(type);
    s.campaigns.seed(aCampaign({ workspaceId: WS, id: 'c-1', campaignTypeId: 'type-own' }));
    await expect(s.views.get(WS, 'c-1')).resolves.toMatchObject({ campaignTypeName: 'Mine', effectiveExtractionKeys: [{ name: 'k' }] });
  });

  it('lists the workspace’s campaigns only, each with its own counts and agent', async () => {
    const s = setup();
    s.campaigns.seed(aCampaign({ workspaceId: WS, id: 'c-1', agentId: 'agent-1', now: new Date('2026-11-20T00:00:00Z') }));
    s.campaigns.seed(aCampaign({ workspaceId: WS, id: 'c-2', now: new Date('2026-11-21T00:00:00Z') }));
    s.campaigns.seed(aCampaign({ workspaceId: OTHER_WS, id: 'c-3' }));
    s.contacts.seed(WS, 'c-2', { phone: '+14155550100' });
    const list = await s.views.list(WS);
    expect(list.map((v) => [v.id, v.agentName, v.contactCount]).sort()).toEqual([
      ['c-1', 'Ava', 0],
      ['c-2', null, 1],
    ]);
  });
});
