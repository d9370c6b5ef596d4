import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { EmailSenders, EmailSenderView } from '../application/email-senders';
import { EmailTemplates, EmailTemplateView } from '../application/email-templates';
import {
  CreateEmailSenderDto,
  CreateEmailTemplateDto,
  EmailSenderListResponse,
  EmailSenderResponse,
  EmailTemplateListResponse,
  EmailTemplateResponse,
  SmtpCredentialsDto,
  UpdateEmailSenderDto,
  UpdateEmailTemplateDto,
} from './messaging.dto';

const smtp = (dto: SmtpCredentialsDto) => ({
  host: dto.host,
  port: dto.port,
  username: dto.username,
  password: dto.password,
  secure: dto.secure ?? false,
  ...(dto.provider ? { provider: dto.provider } : {}),
});

/** Email sender mailboxes (unpaginated). Unknown or foreign ids → 404 not_found. */
@Controller('email/senders')
@RequireFeature('email')
export class EmailSendersController {
  constructor(private readonly senders: EmailSenders) {}

  @RequireScope('email.view')
  @Get()
  @ApiOperation({ summary: "The workspace's sender mailboxes (unpaginated)" })
  @ApiOkResponse({ type: EmailSenderListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<EmailSenderListResponse> {
    return { senders: await this.senders.list(p.workspaceId) };
  }

  @RequireScope('email.edit')
  @Post()
  @Raises('invalid_request')
  @ApiOperation({ summary: 'Add a sender mailbox with its SMTP credentials (sealed, never returned)' })
  @ApiCreatedResponse({ type: EmailSenderResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateEmailSenderDto): Promise<EmailSenderView> {
    return this.senders.create(p.workspaceId, {
      fromAddress: body.fromAddress,
      displayName: body.displayName,
      replyTo: body.replyTo ?? null,
      isDefault: body.isDefault,
      smtp: smtp(body.smtp),
    });
  }

  @RequireScope('email.view')
  @Get(':id')
  @Raises('not_found')
  @ApiOperation({ summary: 'One sender mailbox' })
  @ApiOkResponse({ type: EmailSenderResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<EmailSenderView> {
    return this.senders.get(p.workspaceId, id);
  }

  @RequireScope('email.edit')
  @Patch(':id')
  @Raises('no_fields_to_update', 'not_found', 'invalid_request')
  @ApiOperation({ summary: 'Change a sender mailbox (display name, reply-to, default, SMTP credentials)' })
  @ApiOkResponse({ type: EmailSenderResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateEmailSenderDto): Promise<EmailSenderView> {
    return this.senders.update(p.workspaceId, id, {
      displayName: body.displayName,
      replyTo: body.replyTo,
      isDefault: body.isDefault,
      smtp: body.smtp ? smtp(body.smtp) : undefined,
    });
  }

  @RequireScope('email.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('not_found')
  @ApiOperation({ summary: 'Remove a sender mailbox (its credentials are deleted)' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.senders.remove(p.workspaceId, id);
  }
}

/** Email templates (unpaginated). Unknown or foreign ids → 404 template_not_found. */
@Controller('email/templates')
@RequireFeature('email')
export class EmailTemplatesController {
  constructor(private readonly templates: EmailTemplates) {}

  @RequireScope('email.view')
  @Get()
  @ApiOperation({ summary: "The workspace's email templates (unpaginated)" })
  @ApiOkResponse({ type: EmailTemplateListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<EmailTemplateListResponse> {
    return { templates: await this.templates.list(p.workspaceId) };
  }

  @RequireScope('email.edit')
  @Post()
  @Raises('name_taken')
  @ApiOperation({ summary: 'Create an email template; its bindings must match the placeholders of subject and bodies' })
  @ApiCreatedResponse({ type: EmailTemplateResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateEmailTemplateDto): Promise<EmailTemplateView> {
    return this.templates.create(p.workspaceId, {
      name: body.name,
      subject: body.subject,
      htmlBody: body.htmlBody ?? null,
      textBody: body.textBody ?? null,
      bindings: (body.bindings ?? []).map((b) => ({ ...b })),
      isDefault: body.isDefault,
    });
  }

  @RequireScope('email.view')
  @Get(':id')
  @Raises('template_not_found')
  @ApiOperation({ summary: 'One email template' })
  @ApiOkResponse({ type: EmailTemplateResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<EmailTemplateView> {
    return this.templates.get(p.workspaceId, id);
  }

  @RequireScope('email.edit')
  @Patch(':id')
  @Raises('no_fields_to_update', 'template_not_found', 'invalid_request', 'name_taken')
  @ApiOperation({ summary: 'Change an email template' })
  @ApiOkResponse({ type: EmailTemplateResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateEmailTemplateDto): Promise<EmailTemplateView> {
    return this.templates.update(p.workspaceId, id, { ...body, bindings: body.bindings?.map((b) => ({ ...b })) });
  }

  @RequireScope('email.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('template_not_found')
  @ApiOperation({ summary: 'Delete an email template (the oldest other one becomes the default)' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.templates.remove(p.workspaceId, id);
  }
}
