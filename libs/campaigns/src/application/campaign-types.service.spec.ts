import { FixedClock } from '../../../platform/src/testing';
import { CampaignType } from '../domain/campaign-type.aggregate';
import { PLATFORM_CAMPAIGN_TYPES } from '../domain/platform-campaign-types';
import { InMemoryCampaignTypeRepository } from '../testing';
import { CampaignTypesService } from './campaign-types.service';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const OTHER_WS = 'ws-2';
const PLATFORM = PLATFORM_CAMPAIGN_TYPES[0];

function setup() {
  const clock = new FixedClock(NOW);
  const repo = new InMemoryCampaignTypeRepository();
  const service = new CampaignTypesService(repo, clock);
  const foreign = repo.seed(CampaignType.create({ id: 'type-foreign', workspaceId: OTHER_WS, name: 'Theirs', now: NOW }));
  return { clock, repo, service, foreign };
}

describe('CampaignTypesService (use case, ports faked)', () => {
  it('creates an ACTIVE type owned by the workspace (key type defaults to string)', async () => {
    const s = setup();
    const view = await s.service.create(WS, { name: 'Renewals', extractionKeys: [{ name: 'renewal_date', description: 'When' }] });
    expect(view).toMatchObject({
      name: 'Renewals',
      description: '',
      status: 'ACTIVE',
      isOwn: true,
      extractionKeys: [{ name: 'renewal_date', type: 'string', description: 'When' }],
    });
    expect(s.repo.stored(view.id)).toMatchObject({ workspaceId: WS, name: 'Renewals', createdAt: NOW });
  });

  it('answers name_taken for an active type of the same name; an archived one frees the name', async () => {
    const s = setup();
    const first = await s.service.create(WS, { name: 'Renewals' });
    await expect(s.service.create(WS, { name: 'renewals' })).rejects.toMatchObject({ code: 'name_taken' });
    await s.service.archive(WS, first.id);
    await expect(s.service.create(WS, { name: 'Renewals' })).resolves.toMatchObject({ name: 'Renewals', status: 'ACTIVE' });
  });

  it('answers reserved_extraction_key for a built-in signal name and invalid_body for duplicate keys', async () => {
    const s = setup();
    await expect(s.service.create(WS, { name: 'A', extractionKeys: [{ name: 'Outcome', description: 'x' }] })).rejects.toMatchObject({
      code: 'reserved_extraction_key',
    });
    await expect(
      s.service.create(WS, { name: 'A', extractionKeys: [{ name: 'k', description: 'x' }, { name: 'K', description: 'y' }] }),
    ).rejects.toMatchObject({ code: 'invalid_body' });
    expect([...s.repo.rows.values()].filter((t) => t.workspaceId === WS)).toHaveLength(0);
  });

  it('lists the workspace’s active types first, then the platform’s; never archived or foreign ones', async () => {
    const s = setup();
    const own = await s.service.create(WS, { name: 'Mine' });
    const gone = await s.service.create(WS, { name: 'Gone' });
    await s.service.archive(WS, gone.id);
    const list = await s.service.list(WS);
    expect(list.map((t) => [t.id, t.isOwn])).toEqual([[own.id, true], ...PLATFORM_CAMPAIGN_TYPES.map((t) => [t.id, false])]);
  });

  it('gets an own or a platform type; not_found for foreign, archived and unknown ids', async () => {
    const s = setup();
    const own = await s.service.create(WS, { name: 'Mine' });
    await expect(s.service.get(WS, own.id)).resolves.toMatchObject({ id: own.id, isOwn: true });
    await expect(s.service.get(WS, PLATFORM.id)).resolves.toMatchObject({ id: PLATFORM.id, isOwn: false, name: PLATFORM.name });
    await s.service.archive(WS, own.id);
    for (const id of [s.foreign.id, own.id, 'type-unknown']) {
      await expect(s.service.get(WS, id)).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it('updates an own type, with updatedAt from the clock', async () => {
    const s = setup();
    const own = await s.service.create(WS, { name: 'Mine' });
    s.clock.advance(60_000);
    const view = await s.service.update(WS, own.id, { description: 'new', extractionKeys: [{ name: 'k', type: 'integer', description: 'd' }] });
    expect(view).toMatchObject({ name: 'Mine', description: 'new', extractionKeys: [{ name: 'k', type: 'integer', description: 'd' }] });
    expect(s.repo.stored(own.id)).toMatchObject({ description: 'new', updatedAt: s.clock.now() });
  });

  it('answers no_fields_to_update, forbidden for a platform type, not_found for a foreign one', async () => {
    const s = setup();
    const own = await s.service.create(WS, { name: 'Mine' });
    await expect(s.service.update(WS, own.id, {})).rejects.toMatchObject({ code: 'no_fields_to_update' });
    await expect(s.service.update(WS, PLATFORM.id, { name: 'Hijacked' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(s.service.update(WS, s.foreign.id, { name: 'Hijacked' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.service.update(WS, own.id, { extractionKeys: [{ name: 'summary', description: 'x' }] })).rejects.toMatchObject({
      code: 'reserved_extraction_key',
    });
    expect(s.repo.stored(PLATFORM.id)?.name).toBe(PLATFORM.name);
    expect(s.repo.stored(s.foreign.id)?.name).toBe('Theirs');
    expect(s.repo.stored(own.id)?.extractionKeys).toEqual([]);
  });

  it('archives an own type (it can no longer be picked); platform types are forbidden, foreign ones not_found', async () => {
    const s = setup();
    const own = await s.service.create(WS, { name: 'Mine' });
    await expect(s.service.requireUsable(WS, own.id)).resolves.toBeDefined();
    await s.service.archive(WS, own.id);
    expect(s.repo.stored(own.id)?.status).toBe('ARCHIVED');
    await expect(s.service.requireUsable(WS, own.id)).rejects.toMatchObject({ code: 'campaign_type_not_found' });
    await expect(s.service.archive(WS, PLATFORM.id)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(s.service.archive(WS, s.foreign.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(s.repo.stored(s.foreign.id)?.status).toBe('ACTIVE');
  });

  it('requireUsable accepts active own and platform types, else campaign_type_not_found', async () => {
    const s = setup();
    await expect(s.service.requireUsable(WS, PLATFORM.id)).resolves.toMatchObject({ id: PLATFORM.id });
    for (const id of [s.foreign.id, 'type-unknown']) {
      await expect(s.service.requireUsable(WS, id)).rejects.toMatchObject({ code: 'campaign_type_not_found' });
    }
  });

  it('describe names the types campaigns use, archived ones included, never another workspace’s', async () => {
    const s = setup();
    const own = await s.service.create(WS, { name: 'Mine', extractionKeys: [{ name: 'k', description: 'd' }] });
    await s.service.archive(WS, own.id);
    const described = await s.service.describe(WS, [own.id, own.id, PLATFORM.id, s.foreign.id, 'type-unknown']);
    expect([...described.keys()].sort()).toEqual([own.id, PLATFORM.id].sort());
    expect(described.get(own.id)).toEqual({ name: 'Mine', keys: [{ name: 'k', type: 'string', description: 'd' }] });
  });
});
