import { Injectable } from '@nestjs/common';
import { CallQueries } from '@outreach/calls';
import { CampaignEditing, CampaignLeadReader, CampaignView, CampaignViews, CONTACT_STATUSES } from '@outreach/campaigns';
import { AppError } from '@outreach/core';
import { CALL_OUTCOMES } from '@outreach/telephony';
import {
  CampaignDrafts,
  CampaignFigures,
  CampaignFigureSource,
  DraftCampaignInput,
  FIGURES_CALL_SAMPLE,
} from '../../application/assist.ports';
import { effectiveEvaluation } from '../../application/speech/speech-calls';

/** Campaign drafts through the campaigns module's own application service (its rules, its name check). */
@Injectable()
export class CampaignEditingDrafts extends CampaignDrafts {
  constructor(
    private readonly editing: CampaignEditing,
    private readonly views: CampaignViews,
  ) {
    super();
  }

  async create(workspaceId: string, input: DraftCampaignInput): Promise<CampaignView> {
    for (let attempt = 1; ; attempt++) {
      const suffix = attempt === 1 ? '' : ` (${attempt})`;
      try {
        const { campaign } = await this.editing.create(workspaceId, {
          name: input.name.slice(0, 100 - suffix.length) + suffix,
          channel: 'VOICE',
          source: 'CSV',
          goal: input.goal,
          description: input.description,
          agentId: input.agentId,
          briefText: input.briefText,
          briefFileName: input.briefFileName,
          briefUploadedAt: input.briefUploadedAt,
          customExtractionKeys: input.customExtractionKeys,
          customExtractionKeysMode: 'APPEND',
          evaluationMetrics: input.evaluationMetrics.map((m) => ({ ...m, builtin: false })),
        });
        return campaign;
      } catch (error) {
        // A brief names its campaign like an existing one: number it, as people do.
        if (!(error instanceof AppError && error.code === 'name_taken') || attempt >= 20) throw error;
      }
    }
  }

  require(workspaceId: string, campaignId: string): Promise<CampaignView> {
    return this.views.get(workspaceId, campaignId);
  }
}

/**
 * A campaign's figures from the campaigns module's lead reader (exact counts by status and last
 * outcome) and the calls module's query port (the latest calls' extracted and metric values).
 */
@Injectable()
export class ReadPortCampaignFigures extends CampaignFigureSource {
  constructor(
    private readonly leads: CampaignLeadReader,
    private readonly calls: CallQueries,
  ) {
    super();
  }

  async figures(workspaceId: string, campaignId: string): Promise<CampaignFigures> {
    const contactsByStatus: Record<string, number> = {};
    for (const status of CONTACT_STATUSES) contactsByStatus[status] = await this.leads.count(workspaceId, campaignId, { statuses: [status] });
    const contactsByLastOutcome: Record<string, number> = {};
    for (const outcome of CALL_OUTCOMES) {
      const n = await this.leads.count(workspaceId, campaignId, { outcomes: [outcome] });
      if (n > 0) contactsByLastOutcome[outcome] = n;
    }
    const { items, total } = await this.calls.list(workspaceId, { campaignId }, { offset: 0, limit: FIGURES_CALL_SAMPLE });
    const extractionValues: Record<string, Record<string, number>> = {};
    const evaluationValues: Record<string, Record<string, number>> = {};
    const add = (into: Record<string, Record<string, number>>, key: string, value: unknown) => {
      if (value === null || value === undefined) return;
      const text = Array.isArray(value) ? value.map(String).join('; ') : typeof value === 'object' ? JSON.stringify(value) : String(value);
      const counts = (into[key] ??= {});
      counts[text] = (counts[text] ?? 0) + 1;
    };
    for (const call of items) {
      for (const [key, value] of Object.entries(call.extraction ?? {})) add(extractionValues, key, value);
      for (const [key, value] of Object.entries(effectiveEvaluation(call) ?? {})) add(evaluationValues, key, value);
    }
    return {
      contactCount: Object.values(contactsByStatus).reduce((a, b) => a + b, 0),
      contactsByStatus,
      contactsByLastOutcome,
      callCount: total,
      sampledCalls: items.length,
      extractionValues,
      evaluationValues,
    };
  }
}
