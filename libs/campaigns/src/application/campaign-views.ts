import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { AppError } from '@outreach/core';
import { Campaign, CampaignProps } from '../domain/campaign.aggregate';
import { CampaignSettings } from '../domain/campaign-settings';
import { ExtractionKey } from '../domain/extraction-keys';
import { CampaignTypesService } from './campaign-types.service';
import { CampaignRepository, CampaignStats } from './campaigns.ports';
import { WithIsoDates, withIsoDates } from './iso-dates';

/** What the response adds to the campaign's own fields. */
interface CampaignViewExtras {
  agentName: string | null;
  campaignTypeName: string | null;
  effectiveExtractionKeys: ExtractionKey[];
  contactCount: number;
  receivedCalls: number;
}

/**
 * The campaign response: every field of the spec's Campaign table. It is the campaign's own
 * fields (all but workspaceId, dates as ISO strings) with its settings flattened in, plus what
 * other modules know: a new campaign field or setting appears here with no change to this file.
 */
export type CampaignView = WithIsoDates<Omit<CampaignProps, 'workspaceId' | 'settings'>> & CampaignSettings & CampaignViewExtras;

export function toCampaignView(
  p: CampaignProps,
  extra: { agentName: string | null; type: { name: string; keys: ExtractionKey[] } | null; stats: CampaignStats; effective: ExtractionKey[] },
): CampaignView {
  const { workspaceId: _workspaceId, settings, ...fields } = p;
  return {
    ...withIsoDates(fields),
    ...settings,
    agentName: extra.agentName,
    campaignTypeName: extra.type?.name ?? null,
    effectiveExtractionKeys: extra.effective,
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
