import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { MemberDirectory } from '@outreach/workspaces';
import { AppError, Clock, isUuid, UnitOfWork } from '@outreach/core';
import { Campaign, CampaignChanges, CampaignDraft } from '../domain/campaign.aggregate';
import { ExtractionKey, ExtractionKeyInput, toExtractionKeys } from '../domain/extraction-keys';
import { assertJourneyContactCap } from '../domain/campaign-kinds';
import { CampaignTypesService } from './campaign-types.service';
import { CampaignView, CampaignViews } from './campaign-views';
import { CampaignRepository, ContactRepository, CrmDirectory, UploadMeta, UploadStore, WorkflowDirectory } from './campaigns.ports';
import { ContactImporter, ImportSummary } from './contact-importer';
import { InboundCampaigns } from './inbound-campaigns';

/** Create or PATCH input: the aggregate's fields, with extraction keys as clients send them. */
export type CampaignInput = Omit<CampaignChanges, 'customExtractionKeys'> & { customExtractionKeys?: ExtractionKeyInput[] };

export interface CampaignWithImport {
  campaign: CampaignView;
  /** Present when the request imported an upload. */
  import?: ImportSummary;
}

/**
 * Creating, editing (PATCH, custom keys) and deleting campaigns. Order of checks (decisions.md 13.5, 1.9):
 * lookup (404) → state guards → business rules → references to other modules.
 */
@Injectable()
export class CampaignEditing {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly contacts: ContactRepository,
    private readonly views: CampaignViews,
    private readonly types: CampaignTypesService,
    private readonly agents: AgentDirectory,
    private readonly workflows: WorkflowDirectory,
    private readonly crm: CrmDirectory,
    private readonly members: MemberDirectory,
    private readonly uploads: UploadStore,
    private readonly importer: ContactImporter,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly inbound: InboundCampaigns,
  ) {}

  /** `phoneNumberId`: the number an INBOUND campaign answers on (decisions.md 36.2), attached in the same transaction. */
  async create(
    workspaceId: string,
    input: CampaignInput & Pick<CampaignDraft, 'name' | 'channel' | 'source'>,
    options: { phoneNumberId?: string } = {},
  ): Promise<CampaignWithImport> {
    const now = this.clock.now();
    const draft: CampaignDraft = { ...input, customExtractionKeys: keysOf(input) } as CampaignDraft;
    const typeKeys = await this.typeKeys(workspaceId, draft.campaignTypeId ?? null);
    const campaign = Campaign.create({ id: randomUUID(), workspaceId, draft, context: { typeKeys, hasAudience: false }, now });
    await this.checkReferences(workspaceId, draft);
    await this.inbound.checkDraft(workspaceId, campaign.toProps(), options.phoneNumberId);
    const upload = await this.uploadFor(workspaceId, draft.uploadId, campaign);

    const summary = await this.uow.run(async () => {
      await this.campaigns.insert(campaign);
      if (options.phoneNumberId !== undefined) await this.inbound.attachNumber(campaign.id, options.phoneNumberId);
      return upload ? this.importInto(campaign, upload) : undefined;
    });
    return { campaign: await this.views.get(workspaceId, campaign.id), ...(summary ? { import: summary } : {}) };
  }

  async update(workspaceId: string, id: string, input: CampaignInput): Promise<CampaignWithImport> {
    if (Object.values(input).every((v) => v === undefined)) throw new AppError('no_fields_to_update');
    const changes: CampaignChanges = { ...input, customExtractionKeys: keysOf(input) } as CampaignChanges;

    const summary = await this.uow.run(async () => {
      const campaign = await this.campaigns.findByIdForUpdate(workspaceId, id);
      if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${id}` });
      campaign.assertAllowed('edit');
      const current = campaign.toProps();
      const typeId = changes.campaignTypeId !== undefined ? changes.campaignTypeId : current.campaignTypeId;
      const typeKeys =
        changes.campaignTypeId !== undefined ? await this.typeKeys(workspaceId, typeId) : await this.currentTypeKeys(workspaceId, typeId);
      const hasAudience = changes.source !== undefined && changes.source !== current.source ? await this.contacts.hasAny(id) : false;
      campaign.update(changes, { typeKeys, hasAudience }, this.clock.now());
      // A campaign that becomes a journey brings its contacts under the journey cap.
      if (current.workflowId === null && campaign.toProps().workflowId !== null) assertJourneyContactCap(true, await this.contacts.count(id));
      await this.checkReferences(workspaceId, changes);
      if (changes.agentId) await this.inbound.checkDraft(workspaceId, campaign.toProps());
      const upload = await this.uploadFor(workspaceId, changes.uploadId, campaign);
      await this.campaigns.update(campaign);
      return upload ? this.importInto(campaign, upload) : undefined;
    });
    return { campaign: await this.views.get(workspaceId, id), ...(summary ? { import: summary } : {}) };
  }

  /** PUT /campaigns/{id}/custom-keys (DRAFT only). */
  async replaceCustomKeys(
    workspaceId: string,
    id: string,
    keys: ExtractionKeyInput[],
    mode?: 'APPEND' | 'REPLACE',
  ): Promise<CampaignView> {
    await this.uow.run(async () => {
      const campaign = await this.campaigns.findByIdForUpdate(workspaceId, id);
      if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${id}` });
      const typeKeys = await this.currentTypeKeys(workspaceId, campaign.toProps().campaignTypeId);
      campaign.replaceCustomKeys(toExtractionKeys(keys), mode, { typeKeys, hasAudience: false }, this.clock.now());
      await this.campaigns.update(campaign);
    });
    return this.views.get(workspaceId, id);
  }

  /** DELETE: DRAFT, CANCELED or COMPLETED, and no CRM import pending or running. Contacts go with it. */
  async delete(workspaceId: string, id: string): Promise<void> {
    await this.uow.run(async () => {
      const campaign = await this.campaigns.findByIdForUpdate(workspaceId, id);
      if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${id}` });
      campaign.assertAllowed('delete');
      if (await this.crm.hasImportInProgress(workspaceId, id)) throw new AppError('campaign_delete_import_in_progress');
      await this.campaigns.delete(id);
    });
  }

  private async typeKeys(workspaceId: string, typeId: string | null): Promise<ExtractionKey[]> {
    if (typeId === null) return [];
    return (await this.types.requireUsable(workspaceId, typeId)).toProps().extractionKeys;
  }

  /** The keys of the type the campaign has now (archived types keep counting). */
  private currentTypeKeys(workspaceId: string, typeId: string | null): Promise<ExtractionKey[]> {
    return this.types.currentKeys(workspaceId, typeId);
  }

  /**
   * Agent, workflow and CRM connection named by the input exist (the create route answers
   * agent_not_found with 400, PATCH with the catalogue's 404: campaigns.controller.ts).
   */
  private async checkReferences(workspaceId: string, input: CampaignChanges): Promise<void> {
    if (input.agentId) {
      const agent = await this.agents.find(workspaceId, input.agentId);
      if (!agent) throw new AppError('agent_not_found', { message: `no agent ${input.agentId}` });
      if (agent.status === 'archived') throw new AppError('agent_archived');
    }
    if (input.workflowId) {
      // Workflow ids are UUIDs (the column too): anything else names no workflow.
      const status = isUuid(input.workflowId) ? await this.workflows.status(workspaceId, input.workflowId) : null;
      if (status === null) throw new AppError('workflow_not_found', { message: `no workflow ${input.workflowId}` });
      if (status !== 'ACTIVE') throw new AppError('workflow_not_active', { message: `the workflow is ${status}` });
    }
    if (input.notificationUserIds?.length) {
      // Each id names an ACTIVE member of the workspace (decisions.md 13.13).
      const ids = input.notificationUserIds;
      const active = new Set((await this.members.activeAmong(workspaceId, ids)).map((m) => m.id));
      const issues = ids.flatMap((id, i) =>
        active.has(id) ? [] : [{ path: `notificationUserIds.${i}`, message: `${JSON.stringify(id)} is not an active member of the workspace` }],
      );
      if (issues.length > 0) throw new AppError('invalid_body', { message: issues.map((issue) => issue.message).join('; '), issues });
    }
    if (input.defaultCrmConnectionId) {
      const status = await this.crm.connectionStatus(workspaceId, input.defaultCrmConnectionId);
      if (status !== 'ACTIVE') {
        throw new AppError('crm_connection_not_found', {
          message: status ? `the CRM connection is ${status}` : `no CRM connection ${input.defaultCrmConnectionId}`,
        });
      }
    }
  }

  /** The upload to import when the request names one (checked against the campaign's phone columns). */
  private async uploadFor(workspaceId: string, uploadId: string | null | undefined, campaign: Campaign): Promise<UploadMeta | null> {
    if (!uploadId) return null;
    const upload = await this.uploads.find(workspaceId, uploadId, this.clock.now());
    if (!upload) throw new AppError('upload_not_found_or_expired', { message: `no upload ${uploadId}, or it expired` });
    const p = campaign.toProps();
    if (!p.phoneColumn) {
      throw new AppError('invalid_body', { issues: [{ path: 'phoneColumn', message: 'phoneColumn is required with uploadId' }] });
    }
    this.importer.resolveColumns(upload, { phoneColumn: p.phoneColumn, altPhoneColumns: p.altPhoneColumns });
    return upload;
  }

  private async importInto(campaign: Campaign, upload: UploadMeta): Promise<ImportSummary> {
    const p = campaign.toProps();
    const journey = p.workflowId !== null;
    // A journey upload whose rows alone exceed the cap is refused before any row is read.
    assertJourneyContactCap(journey, upload.rowCount);
    const summary = await this.importer.importUpload(p.workspaceId, p.id, upload, {
      phoneColumn: p.phoneColumn!,
      altPhoneColumns: p.altPhoneColumns,
      countryCode: p.countryCode,
      removeInvalidRows: p.removeInvalidRows,
    });
    if (journey) assertJourneyContactCap(journey, await this.contacts.count(p.id));
    return summary;
  }
}

function keysOf(input: { customExtractionKeys?: ExtractionKeyInput[] }): ExtractionKey[] | undefined {
  return input.customExtractionKeys ? toExtractionKeys(input.customExtractionKeys) : undefined;
}
