import { Injectable } from '@nestjs/common';
import { AppError, UnitOfWork } from '@outreach/core';
import { PhoneNumberDirectory, PhoneNumberView } from '@outreach/telephony';
import { Campaign } from '../domain/campaign.aggregate';
import { CampaignPhoneNumberRepository, CampaignRepository } from './campaigns.ports';

/** The caller-ID numbers a campaign dials from (numbers belong to the telephony module). */
@Injectable()
export class CampaignPhoneNumbers {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly attached: CampaignPhoneNumberRepository,
    private readonly directory: PhoneNumberDirectory,
    private readonly uow: UnitOfWork,
  ) {}

  async list(workspaceId: string, campaignId: string): Promise<PhoneNumberView[]> {
    await this.require(workspaceId, campaignId, false);
    return this.directory.findByIds(workspaceId, await this.attached.listIds(campaignId));
  }

  /** Attaches a number of the workspace on an enabled carrier (else 400 phone_number_not_in_workspace). Idempotent. */
  async attach(workspaceId: string, campaignId: string, phoneNumberId: string): Promise<PhoneNumberView[]> {
    await this.uow.run(async () => {
      const campaign = await this.require(workspaceId, campaignId, true);
      // An INBOUND campaign's numbers are checked by its start (decisions.md 36.2): attached while DRAFT.
      if (campaign.kind.inbound && campaign.status !== 'DRAFT') {
        throw new AppError('campaign_not_draft', { message: 'numbers of an INBOUND campaign are attached while it is DRAFT (its start checks them)' });
      }
      const [number] = await this.directory.findByIds(workspaceId, [phoneNumberId]);
      if (!number) throw new AppError('phone_number_not_in_workspace', { message: `no phone number ${phoneNumberId} in the workspace` });
      if (!number.carrierEnabled) {
        throw new AppError('phone_number_not_in_workspace', { message: `the carrier ${number.carrier} of ${number.e164} is disabled` });
      }
      await this.attached.attach(campaignId, number.id);
    });
    return this.list(workspaceId, campaignId);
  }

  /** Detaches; refused while the campaign is RUNNING (409 campaign_running_no_remove). */
  async detach(workspaceId: string, campaignId: string, phoneNumberId: string): Promise<PhoneNumberView[]> {
    await this.uow.run(async () => {
      const campaign = await this.require(workspaceId, campaignId, true);
      campaign.assertAllowed('detachPhoneNumber');
      if (!(await this.attached.detach(campaignId, phoneNumberId))) {
        throw new AppError('phone_number_not_found', { message: `phone number ${phoneNumberId} is not attached to the campaign` });
      }
    });
    return this.list(workspaceId, campaignId);
  }

  private async require(workspaceId: string, campaignId: string, forUpdate: boolean): Promise<Campaign> {
    const campaign = forUpdate
      ? await this.campaigns.findByIdForUpdate(workspaceId, campaignId)
      : await this.campaigns.findById(workspaceId, campaignId);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    return campaign;
  }
}
