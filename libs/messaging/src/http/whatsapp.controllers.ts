import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { MessageQueries } from '../application/message-queries';
import { WhatsappSenders, WhatsappSenderView } from '../application/whatsapp-senders';
import { WhatsappTemplates, WhatsappTemplateView } from '../application/whatsapp-templates';
import {
  ConnectWhatsappSenderDto,
  MessageListResponse,
  CreateWhatsappTemplateDto,
  UpdateWhatsappSenderDto,
  UpdateWhatsappTemplateDto,
  WhatsappSenderListResponse,
  WhatsappSenderResponse,
  WhatsappTemplateListResponse,
  WhatsappTemplateResponse,
} from './messaging.dto';

/** WhatsApp senders (unpaginated configuration list). Unknown or foreign ids → 404 not_found. */
@Controller('whatsapp/senders')
@RequireFeature('whatsapp')
export class WhatsappSendersController {
  constructor(private readonly senders: WhatsappSenders) {}

  @RequireScope('whatsapp.view')
  @Get()
  @ApiOperation({ summary: "The workspace's WhatsApp senders (unpaginated)" })
  @ApiOkResponse({ type: WhatsappSenderListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<WhatsappSenderListResponse> {
    return { senders: await this.senders.list(p.workspaceId) };
  }

  @RequireScope('whatsapp.edit')
  @Post()
  @Raises('invalid_request')
  @ApiOperation({ summary: 'Connect an own number with its WhatsApp Business credentials (CONNECTING until the provider verified it)' })
  @ApiCreatedResponse({ type: WhatsappSenderResponse })
  connect(@CurrentPrincipal() p: Principal, @Body() body: ConnectWhatsappSenderDto): Promise<WhatsappSenderView> {
    return this.senders.connectOwn(p.workspaceId, { ...body, credentials: { ...body.credentials } });
  }

  @RequireScope('whatsapp.view')
  @Get(':id')
  @Raises('not_found')
  @ApiOperation({ summary: 'One WhatsApp sender' })
  @ApiOkResponse({ type: WhatsappSenderResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<WhatsappSenderView> {
    return this.senders.get(p.workspaceId, id);
  }

  @RequireScope('whatsapp.edit')
  @Patch(':id')
  @Raises('no_fields_to_update', 'not_found', 'invalid_request')
  @ApiOperation({ summary: 'Change how a sender is shown, or make it the default' })
  @ApiOkResponse({ type: WhatsappSenderResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateWhatsappSenderDto): Promise<WhatsappSenderView> {
    return this.senders.update(p.workspaceId, id, { ...body });
  }

  @RequireScope('whatsapp.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('not_found')
  @ApiOperation({ summary: 'Disconnect a sender (its credentials are deleted)' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.senders.remove(p.workspaceId, id);
  }
}

/** WhatsApp message templates (unpaginated configuration list). Unknown or foreign ids → 404 template_not_found. */
@Controller('whatsapp/templates')
@RequireFeature('whatsapp')
export class WhatsappTemplatesController {
  constructor(private readonly templates: WhatsappTemplates) {}

  @RequireScope('whatsapp.view')
  @Get()
  @ApiOperation({ summary: "The workspace's WhatsApp templates (unpaginated)" })
  @ApiOkResponse({ type: WhatsappTemplateListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<WhatsappTemplateListResponse> {
    return { templates: await this.templates.list(p.workspaceId) };
  }

  @RequireScope('whatsapp.edit')
  @Post()
  @Raises('name_taken')
  @ApiOperation({ summary: 'Create a template (DRAFT); its bindings must match the body placeholders' })
  @ApiCreatedResponse({ type: WhatsappTemplateResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWhatsappTemplateDto): Promise<WhatsappTemplateView> {
    return this.templates.create(p.workspaceId, {
      name: body.name,
      language: body.language,
      category: body.category,
      body: body.body,
      footer: body.footer ?? null,
      bindings: (body.bindings ?? []).map((b) => ({ ...b })),
    });
  }

  @RequireScope('whatsapp.view')
  @Get(':id')
  @Raises('template_not_found')
  @ApiOperation({ summary: 'One WhatsApp template' })
  @ApiOkResponse({ type: WhatsappTemplateResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<WhatsappTemplateView> {
    return this.templates.get(p.workspaceId, id);
  }

  @RequireScope('whatsapp.edit')
  @Patch(':id')
  @Raises('no_fields_to_update', 'template_not_found', 'invalid_request', 'name_taken')
  @ApiOperation({ summary: 'Change a template (not while PENDING); a reviewed template goes back to DRAFT' })
  @ApiOkResponse({ type: WhatsappTemplateResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateWhatsappTemplateDto): Promise<WhatsappTemplateView> {
    return this.templates.update(p.workspaceId, id, { ...body, bindings: body.bindings?.map((b) => ({ ...b })) });
  }

  @RequireScope('whatsapp.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('template_not_found')
  @ApiOperation({ summary: 'Delete a template' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.templates.remove(p.workspaceId, id);
  }

  @RequireScope('whatsapp.edit')
  @Post(':id/submit')
  @HttpCode(200)
  @Raises('template_not_found', 'invalid_request')
  @ApiOperation({ summary: 'Submit a DRAFT or REJECTED template for review (PENDING until the provider decides)' })
  @ApiOkResponse({ type: WhatsappTemplateResponse })
  submit(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<WhatsappTemplateView> {
    return this.templates.submit(p.workspaceId, id);
  }
}

/** GET /whatsapp/messages: the contract's fixed recent window (latest 200, cannot be paged). */
@Controller('whatsapp/messages')
@RequireFeature('whatsapp')
export class WhatsappMessagesController {
  constructor(private readonly queries: MessageQueries) {}

  @RequireScope('whatsapp.view')
  @Get()
  @ApiOperation({ summary: "The workspace's latest 200 WhatsApp messages, sent and received, newest first (a fixed window: not paged)" })
  @ApiOkResponse({ type: MessageListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<MessageListResponse> {
    return { messages: await this.queries.recent(p.workspaceId, 'WHATSAPP') };
  }
}
