import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { CampaignViews } from '@outreach/campaigns';
import { isAppError } from '@outreach/core';
import { AnalysisSubject, AnalysisSubjects } from '../../application/analysis/call-analysis.ports';
import type { CallRecord } from '../../application/call-queries';

/**
 * A campaign call is analysed for its campaign's effective extraction keys and evaluation
 * metrics (as they are now). A test call has no campaign: it extracts its agent's extraction keys
 * and evaluates no metrics. A campaign or agent that no longer exists contributes nothing.
 */
@Injectable()
export class CampaignAnalysisSubjects extends AnalysisSubjects {
  constructor(
    private readonly campaigns: CampaignViews,
    private readonly agents: AgentDirectory,
  ) {
    super();
  }

  async forCall(call: Pick<CallRecord, 'workspaceId' | 'campaignId' | 'agentId'>): Promise<AnalysisSubject> {
    if (call.campaignId !== null) {
      try {
        const campaign = await this.campaigns.get(call.workspaceId, call.campaignId);
        return {
          extractionKeys: campaign.effectiveExtractionKeys.map((k) => ({ name: k.name, type: k.type, description: k.description })),
          metrics: campaign.evaluationMetrics.map((m) => ({ key: m.key, label: m.label, allowedValues: [...m.allowedValues], prompt: m.prompt })),
        };
      } catch (error) {
        if (isAppError(error) && error.code === 'campaign_not_found') return { extractionKeys: [], metrics: [] };
        throw error;
      }
    }
    const agent = call.agentId ? await this.agents.find(call.workspaceId, call.agentId) : null;
    return { extractionKeys: agent?.extractionKeys.map((k) => ({ ...k })) ?? [], metrics: [] };
  }
}
