import { Injectable } from '@nestjs/common';
import { AppError, Clock, Outbox, UnitOfWork } from '@outreach/core';
import { CampaignChanges, LiveEdit } from '../domain/campaign.aggregate';
import { CampaignChannel, hasMessageLeg } from '../domain/campaign-kinds';
import { templateRefusal } from '../domain/start-checks';
import { CampaignJob, CampaignQueue } from './campaign-jobs';
import { CampaignTypesService } from './campaign-types.service';
import { CampaignView, CampaignViews } from './campaign-views';
import { CampaignRepository, WhatsappReadiness } from './campaigns.ports';

/** What a live edit may carry: never the audience's custom keys. */
export type LiveEditInput = Omit<CampaignChanges, 'customExtractionKeys'> & { channel?: CampaignChannel };

/**
 * The live edits (decisions.md 34.1–34.2): `PUT /campaigns/{id}/schedule`, `…/outreach` and
 * `…/metrics`. The campaign's transition table says where they are allowed (DRAFT, RUNNING, PAUSED,
 * CREDIT_EXHAUSTED; else 409 campaign_not_editable); the aggregate applies PATCH's rules. The
 * dispatcher reads the campaign afresh on every run, so an edit takes effect at its next run; an
 * edit of a RUNNING campaign also writes a dispatch job in its transaction, so a campaign asleep
 * until its old window's opening re-plans at once instead of at that opening.
 */
@Injectable()
export class CampaignLiveEdits {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly views: CampaignViews,
    private readonly types: CampaignTypesService,
    private readonly whatsapp: WhatsappReadiness,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async edit(workspaceId: string, id: string, edit: LiveEdit, input: LiveEditInput): Promise<CampaignView> {
    if (Object.values(input).every((v) => v === undefined)) throw new AppError('no_fields_to_update');
    await this.uow.run(async () => {
      const campaign = await this.campaigns.findByIdForUpdate(workspaceId, id);
      if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${id}` });
      campaign.assertAllowed(edit);
      const before = campaign.toProps();
      const typeKeys = edit === 'editMetrics' ? await this.types.currentKeys(workspaceId, before.campaignTypeId) : [];
      campaign.editLive(edit, input, { typeKeys, hasAudience: false }, this.clock.now());
      const after = campaign.toProps();
      // A RUNNING campaign keeps sending: a new outreach template must be sendable now (the start
      // checks judge it for the other statuses when they start or resume).
      const templateId = after.settings.whatsappOutreachTemplateId;
      if (after.status === 'RUNNING' && hasMessageLeg(after.channel) && templateId !== before.settings.whatsappOutreachTemplateId) {
        const refusal = templateRefusal((await this.whatsapp.check(workspaceId, templateId)).template);
        if (refusal) throw new AppError(refusal.code);
      }
      await this.campaigns.update(campaign);
      if (after.status === 'RUNNING') {
        await this.outbox.enqueue({ queue: CampaignQueue.Campaigns, name: CampaignJob.Dispatch, payload: { campaignId: id } });
      }
    });
    return this.views.get(workspaceId, id);
  }
}
