import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { AppError } from '@outreach/core';
import { Campaign, CampaignProps } from '../domain/campaign.aggregate';
import { CampaignSettings } from '../domain/campaign-settings';
import { EvaluationMetric, ExtractionKey } from '../domain/extraction-keys';
import { CampaignTypesService } from './campaign-types.service';
import { CampaignRepository, CampaignStats } from './campaigns.ports';

/** The campaign response: every field of the spec's Campaign table (plus allowBurst and the keys' mode). */
export interface CampaignView extends CampaignSettings {
  id: string;
  name: string;
  agentId: string | null;
  agentName: string | null;
  status: string;
  channel: string;
  source: string;
  reservedConcurrency: number;
  allowBurst: boolean;
  variableMap: Record<string, string>;
  startedAt: string | null;
  endedAt: string | null;
  createdAt: string;
  updatedAt: string;
  campaignTypeId: string | null;
  campaignTypeName: string | null;
  customExtractionKeys: ExtractionKey[];
  customExtractionKeysMode: string;
  effectiveExtractionKeys: ExtractionKey[];
  defaultCrmConnectionId: string | null;
  defaultCrmSegmentId: string | null;
  description: string | null;
  workflowId: string | null;
  countryCode: string | null;
  phoneColumn: string | null;
  altPhoneColumns: string[];
  uploadId: string | null;
  removeInvalidRows: boolean;
  timezone: string;
  scheduledStartAt: string | null;
  scheduledEndAt: string | null;
  evaluationMetrics: EvaluationMetric[];
  contactCount: number;
  receivedCalls: number;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toCampaignView(
  p: CampaignProps,
  extra: { agentName: string | null; type: { name: string; keys: ExtractionKey[] } | null; stats: CampaignStats; effective: ExtractionKey[] },
): CampaignView {
  return {
    id: p.id,
    name: p.name,
    agentId: p.agentId,
    agentName: extra.agentName,
    status: p.status,
    channel: p.channel,
    source: p.source,
    reservedConcurrency: p.reservedConcurrency,
    allowBurst: p.allowBurst,
    variableMap: p.variableMap,
    startedAt: iso(p.startedAt),
    endedAt: iso(p.endedAt),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    campaignTypeId: p.campaignTypeId,
    campaignTypeName: extra.type?.name ?? null,
    customExtractionKeys: p.customExtractionKeys,
    customExtractionKeysMode: p.customExtractionKeysMode,
    effectiveExtractionKeys: extra.effective,
    defaultCrmConnectionId: p.defaultCrmConnectionId,
    defaultCrmSegmentId: p.defaultCrmSegmentId,
    description: p.description,
    workflowId: p.workflowId,
    countryCode: p.countryCode,
    phoneColumn: p.phoneColumn,
    altPhoneColumns: p.altPhoneColumns,
    uploadId: p.uploadId,
    removeInvalidRows: p.removeInvalidRows,
    timezone: p.timezone,
    scheduledStartAt: iso(p.scheduledStartAt),
    scheduledEndAt: iso(p.scheduledEndAt),
    evaluationMetrics: p.evaluationMetrics,
    ...p.settings,
    contactCount: extra.stats.contactCount,
    receivedCalls: extra.stats.receivedCalls,
  };
}

/** Reads campaigns and renders them with what other modules know (agent name, type keys). */
@Injectable()
export class CampaignViews {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly types: CampaignTypesService,
    private readonly agents: AgentDirectory,
  ) {}

  async require(workspaceId: string, id: string): Promise<Campaign> {
    const campaign = await this.campaigns.findById(workspaceId, id);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${id}` });
    return campaign;
  }

  async get(workspaceId: string, id: string): Promise<CampaignView> {
    return this.render(await this.require(workspaceId, id));
  }

  async list(workspaceId: string): Promise<CampaignView[]> {
    return this.renderMany(workspaceId, await this.campaigns.listByWorkspace(workspaceId));
  }

  async render(campaign: Campaign): Promise<CampaignView> {
    const [view] = await this.renderMany(campaign.workspaceId, [campaign]);
    return view;
  }

  async renderMany(workspaceId: string, campaigns: readonly Campaign[]): Promise<CampaignView[]> {
    const props = campaigns.map((c) => c.toProps());
    const typeIds = props.flatMap((p) => (p.campaignTypeId ? [p.campaignTypeId] : []));
    const agentIds = [...new Set(props.flatMap((p) => (p.agentId ? [p.agentId] : [])))];
    // Sequential on purpose: inside a transaction all of these share one connection.
    const types = await this.types.describe(workspaceId, typeIds);
    const stats = await this.campaigns.stats(props.map((p) => p.id));
    const agentNames = new Map<string, string | null>();
    for (const id of agentIds) agentNames.set(id, (await this.agents.find(workspaceId, id))?.name ?? null);
    return campaigns.map((campaign, i) => {
      const p = props[i];
      const type = p.campaignTypeId ? (types.get(p.campaignTypeId) ?? null) : null;
      return toCampaignView(p, {
        agentName: p.agentId ? (agentNames.get(p.agentId) ?? null) : null,
        type,
        stats: stats.get(p.id) ?? { contactCount: 0, receivedCalls: 0 },
        effective: campaign.effectiveExtractionKeys(type?.keys ?? []),
      });
    });
  }
}
