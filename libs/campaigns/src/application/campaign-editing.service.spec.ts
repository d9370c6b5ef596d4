import { AppError } from '@outreach/core';
import { InMemoryAgentDirectory } from '../../../agents/src/testing';
import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { inMemoryMemberDirectory, seedMember } from '../../../workspaces/src/testing';
import { CampaignType } from '../domain/campaign-type.aggregate';
import { CampaignStatus } from '../domain/campaign-state-machine';
import { EvaluationMetric } from '../domain/extraction-keys';
import { PLATFORM_CAMPAIGN_TYPES } from '../domain/platform-campaign-types';
import {
  aCampaign,
  InMemoryCampaignRepository,
  InMemoryCampaignTypeRepository,
  InMemoryContactRepository,
  InMemoryCrmDirectory,
  InMemoryUploadStore,
  InMemoryWorkflowDirectory,
  InMemoryCampaignPhoneNumbers,
  inMemoryInboundCampaigns,
} from '../testing';
import { inMemoryPhoneNumberDirectory } from '../../../telephony/src/testing';
import { CampaignEditing } from './campaign-editing.service';
import { CampaignTypesService } from './campaign-types.service';
import { CampaignViews } from './campaign-views';
import { ContactImporter } from './contact-importer';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const OTHER_WS = 'ws-2';
const AGENT = 'agent-1';
const WORKFLOW = '5b3f1c1e-8d2a-4c55-9a0e-2f1b7f7d0a01';
const LEAD_QUALIFICATION = PLATFORM_CAMPAIGN_TYPES[0]; // keys budget, timeline, decision_maker

function metric(key: string): EvaluationMetric {
  return { key, label: key, allowedValues: ['yes', 'no'], prompt: `Is it ${key}?`, builtin: false };
}

function setup() {
  const clock = new FixedClock(NOW);
  const contacts = new InMemoryContactRepository(() => clock.now());
  const campaigns = new InMemoryCampaignRepository(contacts);
  const typeRepo = new InMemoryCampaignTypeRepository();
  const types = new CampaignTypesService(typeRepo, clock);
  const agents = new InMemoryAgentDirectory();
  const workflows = new InMemoryWorkflowDirectory();
  const crm = new InMemoryCrmDirectory();
  const uploads = new InMemoryUploadStore();
  const attached = new InMemoryCampaignPhoneNumbers();
  const phones = inMemoryPhoneNumberDirectory();
  const uow = new RollbackUnitOfWork([campaigns, contacts, attached]);
  // The upload-import path (ContactImporter) is covered by its own spec: nothing here reaches it.
  const importer = {} as ContactImporter;
  const { directory: members, members: memberRepo } = inMemoryMemberDirectory(clock);
  const editing = new CampaignEditing(
    campaigns,
    contacts,
    new CampaignViews(campaigns, types, agents),
    types,
    agents,
    workflows,
    crm,
    members,
    uploads,
    importer,
    uow,
    clock,
    inMemoryInboundCampaigns({ campaigns, contacts, attached, numbers: phones.directory, agents }).inbound,
  );
  agents.add({ id: AGENT, workspaceId: WS, name: 'Ava' });
  const ownType = typeRepo.seed(
    CampaignType.create({
      id: 'type-own',
      workspaceId: WS,
      name: 'Renewals',
      extractionKeys: [{ name: 'renewal_date', type: 'date', description: 'When the contract renews' }],
      now: NOW,
    }),
  );
  return { clock, contacts, campaigns, typeRepo, agents, workflows, crm, uploads, uow, editing, ownType, memberRepo, members, attached, phones };
}

type Setup = ReturnType<typeof setup>;

function seedCampaign(s: Setup, status: CampaignStatus = 'DRAFT', extra: Parameters<typeof aCampaign>[0]['draft'] = {}) {
  return s.campaigns.seed(aCampaign({ workspaceId: WS, id: 'c-1', status, draft: { name: 'Spring', ...extra } }));
}

describe('CampaignEditing (use case, ports faked)', () => {
  describe('notificationUserIds', () => {
    it('each id must be an ACTIVE member of the workspace: the offending entries are named, nothing is stored', async () => {
      const s = setup();
      const active = await seedMember(s.memberRepo, { workspaceId: WS });
      const suspended = await seedMember(s.memberRepo, { workspaceId: WS });
      await s.members.setStatus(suspended.id, 'SUSPENDED');
      const foreign = await seedMember(s.memberRepo, { workspaceId: OTHER_WS });
      const refused = await s.editing
        .create(WS, { name: 'N', channel: 'VOICE', source: 'CSV', notificationUserIds: [active.id, suspended.id, foreign.id, 'nobody'] })
        .catch((e: AppError) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe('invalid_body');
      expect((refused as AppError).options.issues).toEqual([
        { path: 'notificationUserIds.1', message: `"${suspended.id}" is not an active member of the workspace` },
        { path: 'notificationUserIds.2', message: `"${foreign.id}" is not an active member of the workspace` },
        { path: 'notificationUserIds.3', message: '"nobody" is not an active member of the workspace' },
      ]);
      expect(s.campaigns.rows.size).toBe(0);

      const { campaign } = await s.editing.create(WS, { name: 'N', channel: 'VOICE', source: 'CSV', notificationUserIds: [active.id] });
      expect(campaign.notificationUserIds).toEqual([active.id]);
      const patched = await s.editing.update(WS, campaign.id, { notificationUserIds: [suspended.id] }).catch((e: AppError) => e);
      expect((patched as AppError).code).toBe('invalid_body');
      expect((await s.editing.update(WS, campaign.id, { notificationUserIds: [] })).campaign.notificationUserIds).toEqual([]);
    });
  });

  describe('create', () => {
    it('stores a DRAFT campaign and answers its view', async () => {
      const s = setup();
      const { campaign, import: summary } = await s.editing.create(WS, {
        name: 'Spring',
        channel: 'VOICE',
        source: 'CSV',
        agentId: AGENT,
        campaignTypeId: LEAD_QUALIFICATION.id,
        customExtractionKeys: [{ name: 'car_model', description: 'The car they drive' }],
      });

      expect(summary).toBeUndefined();
      expect(campaign).toMatchObject({
        name: 'Spring',
        status: 'DRAFT',
        agentId: AGENT,
        agentName: 'Ava',
        campaignTypeName: 'Lead qualification',
        customExtractionKeys: [{ name: 'car_model', type: 'string', description: 'The car they drive' }],
        createdAt: NOW.toISOString(),
        contactCount: 0,
      });
      expect(campaign.effectiveExtractionKeys.map((k) => k.name)).toEqual(['budget', 'timeline', 'decision_maker', 'car_model']);
      expect(s.campaigns.stored(campaign.id)).toMatchObject({ workspaceId: WS, name: 'Spring', status: 'DRAFT' });
      expect(s.uow.runs).toBe(1);
    });

    it('answers name_taken for a name the workspace uses already (case-insensitively), and stores nothing', async () => {
      const s = setup();
      await s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV' });
      await expect(s.editing.create(WS, { name: 'SPRING', channel: 'VOICE', source: 'CSV' })).rejects.toMatchObject({ code: 'name_taken' });
      expect(s.campaigns.rows.size).toBe(1);
      // Another workspace may use the name.
      await expect(s.editing.create(OTHER_WS, { name: 'Spring', channel: 'VOICE', source: 'CSV' })).resolves.toBeDefined();
    });

    it('answers campaign_type_not_found for an unknown, archived or foreign campaign type', async () => {
      const s = setup();
      const foreign = s.typeRepo.seed(CampaignType.create({ id: 'type-foreign', workspaceId: OTHER_WS, name: 'Theirs', now: NOW }));
      const archived = s.typeRepo.seed(CampaignType.create({ id: 'type-archived', workspaceId: WS, name: 'Old', now: NOW }));
      archived.archive(NOW, WS);
      s.typeRepo.seed(archived);
      for (const campaignTypeId of ['type-unknown', foreign.id, archived.id]) {
        await expect(s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', campaignTypeId })).rejects.toMatchObject({
          code: 'campaign_type_not_found',
        });
      }
      expect(s.campaigns.rows.size).toBe(0);
    });

    it('answers reserved_extraction_key for a custom key with a built-in signal name', async () => {
      const s = setup();
      await expect(
        s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', customExtractionKeys: [{ name: 'Phone', description: 'x' }] }),
      ).rejects.toMatchObject({ code: 'reserved_extraction_key' });
    });

    it('answers reserved_metric_key for a metric with a built-in signal name', async () => {
      const s = setup();
      await expect(
        s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', evaluationMetrics: [metric('sentiment')] }),
      ).rejects.toMatchObject({ code: 'reserved_metric_key' });
    });

    it('answers metric_key_collision for a metric named like a type key or a custom key', async () => {
      const s = setup();
      await expect(
        s.editing.create(WS, {
          name: 'Spring',
          channel: 'VOICE',
          source: 'CSV',
          campaignTypeId: LEAD_QUALIFICATION.id,
          evaluationMetrics: [metric('budget')],
        }),
      ).rejects.toMatchObject({ code: 'metric_key_collision' });
      await expect(
        s.editing.create(WS, {
          name: 'Spring',
          channel: 'VOICE',
          source: 'CSV',
          customExtractionKeys: [{ name: 'car_model', description: 'x' }],
          evaluationMetrics: [metric('CAR_MODEL')],
        }),
      ).rejects.toMatchObject({ code: 'metric_key_collision' });
      // REPLACE drops the type's keys: the same metric no longer collides.
      await expect(
        s.editing.create(WS, {
          name: 'Spring',
          channel: 'VOICE',
          source: 'CSV',
          campaignTypeId: LEAD_QUALIFICATION.id,
          customExtractionKeysMode: 'REPLACE',
          evaluationMetrics: [metric('budget')],
        }),
      ).resolves.toBeDefined();
    });

    it('answers default_crm_connection_required for a CRM_WEBHOOK campaign without a connection', async () => {
      const s = setup();
      await expect(s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CRM_WEBHOOK' })).rejects.toMatchObject({
        code: 'default_crm_connection_required',
      });
    });

    it('answers journey_campaign_source_unsupported for a journey with a CRM source', async () => {
      const s = setup();
      s.workflows.statuses.set(WORKFLOW, 'ACTIVE');
      await expect(
        s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CRM_MANUAL', workflowId: WORKFLOW }),
      ).rejects.toMatchObject({ code: 'journey_campaign_source_unsupported' });
      await expect(s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'API', workflowId: WORKFLOW })).resolves.toMatchObject({
        campaign: { workflowId: WORKFLOW },
      });
    });

    it('answers agent_not_found (no status chosen: the create route answers 400) for an unknown or foreign agent, agent_archived for an archived one', async () => {
      const s = setup();
      s.agents.add({ id: 'agent-foreign', workspaceId: OTHER_WS });
      s.agents.add({ id: 'agent-archived', workspaceId: WS, status: 'archived' });
      for (const agentId of ['agent-unknown', 'agent-foreign']) {
        const error = await s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', agentId }).catch((e: AppError) => e);
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ code: 'agent_not_found' });
        expect((error as AppError).options.status).toBeUndefined();
      }
      await expect(
        s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', agentId: 'agent-archived' }),
      ).rejects.toMatchObject({ code: 'agent_archived' });
      expect(s.campaigns.rows.size).toBe(0);
    });

    it('accepts a PROVISIONING agent (the start check refuses it later)', async () => {
      const s = setup();
      s.agents.add({ id: 'agent-new', workspaceId: WS, status: 'PROVISIONING' });
      await expect(s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', agentId: 'agent-new' })).resolves.toBeDefined();
    });

    it('answers workflow_not_found for a malformed or unknown workflow, workflow_not_active for an inactive one', async () => {
      const s = setup();
      s.workflows.statuses.set('not-a-uuid', 'ACTIVE');
      for (const workflowId of ['not-a-uuid', WORKFLOW]) {
        await expect(s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', workflowId })).rejects.toMatchObject({
          code: 'workflow_not_found',
        });
      }
      s.workflows.statuses.set(WORKFLOW, 'DRAFT');
      await expect(s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', workflowId: WORKFLOW })).rejects.toMatchObject({
        code: 'workflow_not_active',
      });
    });

    it('answers crm_connection_not_found (400) for an unknown or inactive CRM connection', async () => {
      const s = setup();
      s.crm.connections.set('crm-paused', 'PAUSED');
      for (const defaultCrmConnectionId of ['crm-unknown', 'crm-paused']) {
        await expect(
          s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CRM_WEBHOOK', defaultCrmConnectionId }),
        ).rejects.toMatchObject({ code: 'crm_connection_not_found', status: 400 });
      }
      s.crm.connections.set('crm-ok', 'ACTIVE');
      await expect(
        s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CRM_WEBHOOK', defaultCrmConnectionId: 'crm-ok' }),
      ).resolves.toMatchObject({ campaign: { source: 'CRM_WEBHOOK', defaultCrmConnectionId: 'crm-ok' } });
    });

    it('checks in order: campaign type, then rules, then references', async () => {
      const s = setup();
      await expect(
        s.editing.create(WS, {
          name: 'Spring',
          channel: 'VOICE',
          source: 'CSV',
          campaignTypeId: 'type-unknown',
          evaluationMetrics: [metric('status')],
          agentId: 'agent-unknown',
        }),
      ).rejects.toMatchObject({ code: 'campaign_type_not_found' });
      await expect(
        s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', evaluationMetrics: [metric('status')], agentId: 'agent-unknown' }),
      ).rejects.toMatchObject({ code: 'reserved_metric_key' });
    });

    it('answers upload_not_found_or_expired for an unknown, foreign or expired upload, and stores nothing', async () => {
      const s = setup();
      s.uploads.seed({ id: 'up-foreign', workspaceId: OTHER_WS, fileName: 'a.csv', expiresAt: new Date(NOW.getTime() + 3600_000), createdAt: NOW }, [
        ['phone'],
        ['+14155550100'],
      ]);
      s.uploads.seed({ id: 'up-expired', workspaceId: WS, fileName: 'b.csv', expiresAt: NOW, createdAt: NOW }, [['phone'], ['+14155550100']]);
      for (const uploadId of ['up-unknown', 'up-foreign', 'up-expired']) {
        await expect(
          s.editing.create(WS, { name: 'Spring', channel: 'VOICE', source: 'CSV', uploadId, phoneColumn: 'phone' }),
        ).rejects.toMatchObject({ code: 'upload_not_found_or_expired' });
      }
      expect(s.campaigns.rows.size).toBe(0);
    });
  });

  describe('update (PATCH)', () => {
    it('saves the changes with updatedAt from the clock', async () => {
      const s = setup();
      seedCampaign(s);
      s.clock.advance(60_000);
      const { campaign } = await s.editing.update(WS, 'c-1', { name: 'Summer', description: 'hot', agentId: AGENT, retryCount: 4 });
      expect(campaign).toMatchObject({ name: 'Summer', description: 'hot', agentName: 'Ava', retryCount: 4, updatedAt: s.clock.now().toISOString() });
      expect(s.campaigns.stored('c-1')).toMatchObject({ name: 'Summer', agentId: AGENT, settings: { retryCount: 4 } });
    });

    it('answers no_fields_to_update for an empty body', async () => {
      const s = setup();
      seedCampaign(s);
      await expect(s.editing.update(WS, 'c-1', {})).rejects.toMatchObject({ code: 'no_fields_to_update' });
      await expect(s.editing.update(WS, 'c-1', { name: undefined })).rejects.toMatchObject({ code: 'no_fields_to_update' });
    });

    it('answers campaign_not_found for an unknown or foreign campaign', async () => {
      const s = setup();
      seedCampaign(s);
      await expect(s.editing.update(WS, 'nope', { name: 'X' })).rejects.toMatchObject({ code: 'campaign_not_found' });
      await expect(s.editing.update(OTHER_WS, 'c-1', { name: 'X' })).rejects.toMatchObject({ code: 'campaign_not_found' });
    });

    it.each<CampaignStatus>(['RUNNING', 'COMPLETED', 'CANCELED'])('answers campaign_not_draft for a %s campaign', async (status) => {
      const s = setup();
      seedCampaign(s, status);
      await expect(s.editing.update(WS, 'c-1', { name: 'Summer' })).rejects.toMatchObject({ code: 'campaign_not_draft' });
      expect(s.campaigns.stored('c-1')?.name).toBe('Spring');
    });

    it('edits a PAUSED campaign, except its audience fields (campaign_not_draft)', async () => {
      const s = setup();
      seedCampaign(s, 'PAUSED');
      await expect(s.editing.update(WS, 'c-1', { name: 'Summer' })).resolves.toMatchObject({ campaign: { name: 'Summer' } });
      await expect(s.editing.update(WS, 'c-1', { source: 'API' })).rejects.toMatchObject({ code: 'campaign_not_draft' });
      await expect(s.editing.update(WS, 'c-1', { customExtractionKeys: [{ name: 'a', description: 'b' }] })).rejects.toMatchObject({
        code: 'campaign_not_draft',
      });
      expect(s.campaigns.stored('c-1')?.source).toBe('CSV');
    });

    it('answers campaign_source_locked when a DRAFT with contacts changes its source; re-sending it is fine', async () => {
      const s = setup();
      seedCampaign(s);
      s.contacts.seed(WS, 'c-1', { phone: '+14155550100' });
      await expect(s.editing.update(WS, 'c-1', { source: 'API' })).rejects.toMatchObject({ code: 'campaign_source_locked' });
      await expect(s.editing.update(WS, 'c-1', { source: 'CSV', name: 'Spring 2' })).resolves.toMatchObject({ campaign: { source: 'CSV' } });
      s.contacts.deleteCampaign('c-1');
      await expect(s.editing.update(WS, 'c-1', { source: 'API' })).resolves.toMatchObject({ campaign: { source: 'API' } });
    });

    it('answers journey_campaign_source_unsupported when a journey moves to a CRM source', async () => {
      const s = setup();
      s.workflows.statuses.set(WORKFLOW, 'ACTIVE');
      seedCampaign(s, 'DRAFT', { workflowId: WORKFLOW });
      await expect(s.editing.update(WS, 'c-1', { source: 'CRM_MANUAL' })).rejects.toMatchObject({ code: 'journey_campaign_source_unsupported' });
    });

    it('answers default_crm_connection_required when the source becomes CRM_WEBHOOK without a connection', async () => {
      const s = setup();
      seedCampaign(s);
      await expect(s.editing.update(WS, 'c-1', { source: 'CRM_WEBHOOK' })).rejects.toMatchObject({ code: 'default_crm_connection_required' });
    });

    it('answers campaign_type_not_found when switching to an archived type', async () => {
      const s = setup();
      seedCampaign(s);
      s.ownType.archive(NOW, WS);
      s.typeRepo.seed(s.ownType);
      await expect(s.editing.update(WS, 'c-1', { campaignTypeId: s.ownType.id })).rejects.toMatchObject({ code: 'campaign_type_not_found' });
    });

    it('keeps counting the keys of an archived type the campaign already has (metric_key_collision)', async () => {
      const s = setup();
      s.campaigns.seed(aCampaign({ workspaceId: WS, id: 'c-1', draft: { name: 'Spring' }, campaignTypeId: s.ownType.id }));
      s.ownType.archive(NOW, WS);
      s.typeRepo.seed(s.ownType);
      await expect(s.editing.update(WS, 'c-1', { evaluationMetrics: [metric('renewal_date')] })).rejects.toMatchObject({
        code: 'metric_key_collision',
      });
      await expect(s.editing.update(WS, 'c-1', { evaluationMetrics: [metric('interested_in_renewal')] })).resolves.toMatchObject({
        campaign: { campaignTypeName: 'Renewals', effectiveExtractionKeys: [{ name: 'renewal_date' }] },
      });
    });

    it('answers reserved_metric_key and metric_key_collision on PATCH', async () => {
      const s = setup();
      seedCampaign(s, 'DRAFT', { customExtractionKeys: [{ name: 'car_model', type: 'string', description: 'x' }] });
      await expect(s.editing.update(WS, 'c-1', { evaluationMetrics: [metric('summary')] })).rejects.toMatchObject({ code: 'reserved_metric_key' });
      await expect(s.editing.update(WS, 'c-1', { evaluationMetrics: [metric('car_model')] })).rejects.toMatchObject({
        code: 'metric_key_collision',
      });
      await expect(s.editing.update(WS, 'c-1', { campaignTypeId: LEAD_QUALIFICATION.id })).resolves.toBeDefined();
      await expect(s.editing.update(WS, 'c-1', { evaluationMetrics: [metric('timeline')] })).rejects.toMatchObject({
        code: 'metric_key_collision',
      });
    });

    it('answers agent_not_found with 404 on PATCH, agent_archived for an archived agent', async () => {
      const s = setup();
      seedCampaign(s);
      s.agents.add({ id: 'agent-archived', workspaceId: WS, status: 'archived' });
      await expect(s.editing.update(WS, 'c-1', { agentId: 'agent-unknown' })).rejects.toMatchObject({ code: 'agent_not_found', status: 404 });
      await expect(s.editing.update(WS, 'c-1', { agentId: 'agent-archived' })).rejects.toMatchObject({ code: 'agent_archived' });
      expect(s.campaigns.stored('c-1')?.agentId).toBeNull();
    });

    it('answers name_taken when renaming onto another campaign’s name, changing nothing', async () => {
      const s = setup();
      seedCampaign(s);
      s.campaigns.seed(aCampaign({ workspaceId: WS, id: 'c-2', draft: { name: 'Autumn' } }));
      await expect(s.editing.update(WS, 'c-1', { name: 'autumn', description: 'd' })).rejects.toMatchObject({ code: 'name_taken' });
      expect(s.campaigns.stored('c-1')).toMatchObject({ name: 'Spring', description: null });
    });
  });

  describe('replaceCustomKeys', () => {
    it('replaces the keys and mode of a DRAFT campaign', async () => {
      const s = setup();
      s.campaigns.seed(aCampaign({ workspaceId: WS, id: 'c-1', campaignTypeId: LEAD_QUALIFICATION.id }));
      const view = await s.editing.replaceCustomKeys(WS, 'c-1', [{ name: 'budget', type: 'number', description: 'in USD' }, { name: 'x', description: 'y' }]);
      expect(view.customExtractionKeys).toEqual([
        { name: 'budget', type: 'number', description: 'in USD' },
        { name: 'x', type: 'string', description: 'y' },
      ]);
      expect(view.effectiveExtractionKeys.map((k) => `${k.name}:${k.type}`)).toEqual(['budget:number', 'timeline:string', 'decision_maker:boolean', 'x:string']);
      const replaced = await s.editing.replaceCustomKeys(WS, 'c-1', [{ name: 'x', description: 'y' }], 'REPLACE');
      expect(replaced.effectiveExtractionKeys.map((k) => k.name)).toEqual(['x']);
      expect(s.campaigns.stored('c-1')?.customExtractionKeysMode).toBe('REPLACE');
    });

    it('answers campaign_not_draft outside DRAFT and campaign_not_found for an unknown campaign', async () => {
      const s = setup();
      seedCampaign(s, 'PAUSED');
      await expect(s.editing.replaceCustomKeys(WS, 'c-1', [])).rejects.toMatchObject({ code: 'campaign_not_draft' });
      await expect(s.editing.replaceCustomKeys(WS, 'nope', [])).rejects.toMatchObject({ code: 'campaign_not_found' });
    });

    it('answers reserved_extraction_key, and metric_key_collision with the campaign’s metrics', async () => {
      const s = setup();
      seedCampaign(s, 'DRAFT', { evaluationMetrics: [metric('score')] });
      await expect(s.editing.replaceCustomKeys(WS, 'c-1', [{ name: 'transcript', description: 'x' }])).rejects.toMatchObject({
        code: 'reserved_extraction_key',
      });
      await expect(s.editing.replaceCustomKeys(WS, 'c-1', [{ name: 'score', description: 'x' }])).rejects.toMatchObject({
        code: 'metric_key_collision',
      });
      expect(s.campaigns.stored('c-1')?.customExtractionKeys).toEqual([]);
    });
  });

  describe('delete', () => {
    it.each<CampaignStatus>(['DRAFT', 'COMPLETED', 'CANCELED'])('deletes a %s campaign with its contacts', async (status) => {
      const s = setup();
      seedCampaign(s, status);
      s.contacts.seed(WS, 'c-1', { phone: '+14155550100' });
      await s.editing.delete(WS, 'c-1');
      expect(s.campaigns.stored('c-1')).toBeUndefined();
      expect(s.contacts.inCampaign('c-1')).toEqual([]);
    });

    it.each<CampaignStatus>(['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED'])('answers campaign_delete_active for a %s campaign', async (status) => {
      const s = setup();
      seedCampaign(s, status);
      await expect(s.editing.delete(WS, 'c-1')).rejects.toMatchObject({ code: 'campaign_delete_active' });
      expect(s.campaigns.stored('c-1')).toBeDefined();
    });

    it('answers campaign_delete_import_in_progress while a CRM import runs', async () => {
      const s = setup();
      seedCampaign(s);
      s.crm.importsInProgress.add('c-1');
      await expect(s.editing.delete(WS, 'c-1')).rejects.toMatchObject({ code: 'campaign_delete_import_in_progress' });
      expect(s.campaigns.stored('c-1')).toBeDefined();
    });

    it('answers campaign_not_found for an unknown or foreign campaign', async () => {
      const s = setup();
      seedCampaign(s);
      await expect(s.editing.delete(OTHER_WS, 'c-1')).rejects.toMatchObject({ code: 'campaign_not_found' });
      expect(s.campaigns.stored('c-1')).toBeDefined();
    });
  });
});
