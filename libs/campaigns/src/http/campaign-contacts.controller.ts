import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { AnswerErrors, CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import { toPhoneNumberResponse, PhoneNumberResponse } from '@outreach/telephony';
import type { Request } from 'express';
import { CampaignContacts, ExplainedContactView } from '../application/campaign-contacts.service';
import { CampaignPhoneNumbers } from '../application/campaign-phone-numbers.service';
import { TimelinePage } from '../application/contact-timeline';
import { UploadIntake, UploadResult } from '../application/upload-intake.service';
import {
  AddContactsResponse,
  AttachPhoneNumberDto,
  ContactInputDto,
  ContactResponse,
  LeadsQueryDto,
  LeadsResponse,
  MAX_CONTACTS_PER_REQUEST,
  UploadBodyDoc,
  UploadResponse,
} from './dto/misc.dto';
import { TimelinePageResponse, TimelineQueryDto } from './dto/timeline.dto';
import { SingleFileUploadInterceptor } from './single-file-upload.interceptor';
import { validateArrayBody } from './validate-array';
import { refusalsOf } from '../domain/campaign-state-machine';

class CampaignPhoneNumbersResponse {
  @ApiProperty({ type: [PhoneNumberResponse] }) phoneNumbers: PhoneNumberResponse[];
}

@Controller()
export class CampaignContactsController {
  constructor(
    private readonly contacts: CampaignContacts,
    private readonly numbers: CampaignPhoneNumbers,
    private readonly uploads: UploadIntake,
  ) {}

  @RequireScope('campaigns.edit')
  @Post('uploads')
  @UseInterceptors(SingleFileUploadInterceptor)
  @Raises('no_files', 'file_required', 'file_too_large', 'upload_error', 'upload_failed', 'invalid_csv_format', 'excel_mangled_phone')
  @ApiOperation({ summary: 'Upload a CSV or XLSX of contacts (one multipart "file" field); import it with uploadId + phoneColumn' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadBodyDoc })
  @ApiCreatedResponse({ type: UploadResponse })
  upload(@CurrentPrincipal() p: Principal, @Req() req: Request): Promise<UploadResult> {
    const file = req.file!;
    return this.uploads.intake(p.workspaceId, { buffer: file.buffer, fileName: file.originalname, mimeType: file.mimetype });
  }

  @RequireScope('campaigns.edit')
  @Post('campaigns/:id/contacts')
  @AnswerErrors({ invalid_phone: 400 })
  @Raises('campaign_not_found', ...refusalsOf('addContacts'), 'invalid_phone', 'excel_mangled_phone', 'journey_campaign_contact_cap')
  @ApiOperation({ summary: 'Add contacts to a DRAFT campaign (JSON array); duplicates are skipped' })
  @ApiBody({ type: [ContactInputDto] })
  @ApiCreatedResponse({ type: AddContactsResponse })
  async addContacts(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: unknown): Promise<AddContactsResponse> {
    const items = await validateArrayBody(ContactInputDto, body, { min: 1, max: MAX_CONTACTS_PER_REQUEST });
    return this.contacts.add(p.workspaceId, id, items);
  }

  @RequireScope('campaigns.view')
  @Get('campaigns/:id/leads')
  @Raises('campaign_not_found')
  @ApiOperation({ summary: 'The campaign contacts, oldest first (offset/limit, optional status filter)' })
  @ApiOkResponse({ type: LeadsResponse })
  leads(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() query: LeadsQueryDto): Promise<{ items: ExplainedContactView[]; total: number }> {
    return this.contacts.leads(p.workspaceId, id, { offset: query.offset ?? 0, limit: query.limit ?? 50, status: query.status });
  }

  @RequireScope('campaigns.view')
  @Get('campaigns/:id/contacts/:contactId/timeline')
  @Raises('campaign_not_found', 'contact_not_found', 'invalid_cursor')
  @ApiOperation({
    summary: "A contact's timeline, oldest first (cursor): created, claimed, skipped (why, until when), attempts, retries, result, webhook",
  })
  @ApiOkResponse({ type: TimelinePageResponse })
  timeline(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('contactId') contactId: string,
    @Query() query: TimelineQueryDto,
  ): Promise<TimelinePage> {
    return this.contacts.timeline(p.workspaceId, id, contactId, { cursor: query.cursor, limit: query.limit ?? 50 });
  }

  @RequireScope('campaigns.edit')
  @Post('campaigns/:id/contacts/:contactId/retry')
  @HttpCode(200)
  @Raises('campaign_not_found', 'contact_not_found', ...refusalsOf('retryContact'), 'contact_not_failed')
  @ApiOperation({ summary: 'Send a FAILED contact back to PENDING with fresh attempts' })
  @ApiOkResponse({ type: ContactResponse })
  retry(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('contactId') contactId: string): Promise<ExplainedContactView> {
    return this.contacts.retry(p.workspaceId, id, contactId);
  }

  @RequireScope('campaigns.view')
  @Get('campaigns/:id/phone-numbers')
  @Raises('campaign_not_found')
  @ApiOperation({ summary: 'The caller-ID numbers attached to a campaign' })
  @ApiOkResponse({ type: CampaignPhoneNumbersResponse })
  async listNumbers(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CampaignPhoneNumbersResponse> {
    return { phoneNumbers: (await this.numbers.list(p.workspaceId, id)).map(toPhoneNumberResponse) };
  }

  @RequireScope('campaigns.edit')
  @Post('campaigns/:id/phone-numbers')
  @HttpCode(200)
  @Raises('campaign_not_found', 'campaign_not_draft', 'phone_number_not_in_workspace')
  @ApiOperation({ summary: 'Attach a caller-ID number of the workspace (idempotent)' })
  @ApiOkResponse({ type: CampaignPhoneNumbersResponse })
  async attachNumber(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: AttachPhoneNumberDto): Promise<CampaignPhoneNumbersResponse> {
    return { phoneNumbers: (await this.numbers.attach(p.workspaceId, id, body.phoneNumberId)).map(toPhoneNumberResponse) };
  }

  @RequireScope('campaigns.edit')
  @Delete('campaigns/:id/phone-numbers/:numberId')
  @Raises('campaign_not_found', ...refusalsOf('detachPhoneNumber'), 'phone_number_not_found')
  @ApiOperation({ summary: 'Detach a number (refused while the campaign is RUNNING)' })
  @ApiOkResponse({ type: CampaignPhoneNumbersResponse })
  async detachNumber(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('numberId') numberId: string,
  ): Promise<CampaignPhoneNumbersResponse> {
    return { phoneNumbers: (await this.numbers.detach(p.workspaceId, id, numberId)).map(toPhoneNumberResponse) };
  }
}
