import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { EMAIL_APIS, EmailApi, WHATSAPP_APIS, WhatsappApi } from '../application/message-provider.port';
import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES } from '../domain/message';
import { BINDING_SOURCES, BindingSource, MAX_PLACEHOLDERS } from '../domain/variable-bindings';
import { TEMPLATE_CATEGORIES, TemplateCategory } from '../domain/whatsapp-template';

/** Optional but never null: absent is fine, `null` is refused. */
const Optional = () => ValidateIf((_: unknown, value: unknown) => value !== undefined);
/** Optional and nullable. */
const Nullable = () => IsOptional();

const E164 = /^\+[1-9]\d{6,14}$/;
/** WhatsApp's own rule for template names: lower-case letters, digits and underscores. */
const TEMPLATE_NAME = /^[a-z0-9_]+$/;
/** A language code as WhatsApp spells it: `en`, `en_US`, `pt_BR`. */
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;

// ---------------------------------------------------------------------------------------------
// Variable bindings

export class VariableBindingDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_PLACEHOLDERS, description: 'The placeholder number: 1 for {{1}}', example: 1 })
  @IsInt()
  @Min(1)
  @Max(MAX_PLACEHOLDERS)
  placeholder: number;

  @ApiProperty({
    enum: BINDING_SOURCES,
    description: 'CONTACT_FIELD (value: a contact field), CAMPAIGN_VARIABLE (a campaign variable), CONSTANT (the text itself), RUNTIME (a value known only at send time: payment_link, recovery_link, order_id, order_total, tracking_link)',
    example: 'CONTACT_FIELD',
  })
  @IsIn(BINDING_SOURCES)
  source: BindingSource;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'name' })
  @IsString()
  @Length(1, 200)
  value: string;
}

const bindingsProperty: ApiPropertyOptions = {
  type: [VariableBindingDto],
  maxItems: MAX_PLACEHOLDERS,
  description: 'One binding per placeholder {{1}}…{{n}} of the texts (checked against them: 400 invalid_body)',
};

// ---------------------------------------------------------------------------------------------
// WhatsApp senders

export class WhatsappCredentialsDto {
  @ApiProperty({ minLength: 1, maxLength: 4096, description: 'WhatsApp Business access token (sealed at rest, never returned)' })
  @IsString()
  @Length(1, 4096)
  accessToken: string;

  @ApiProperty({ minLength: 1, maxLength: 64, description: "The provider's id of the phone number", example: '106540352242922' })
  @IsString()
  @Length(1, 64)
  phoneNumberId: string;

  @ApiProperty({ minLength: 1, maxLength: 64, description: 'WhatsApp Business account id', example: '102290129340398' })
  @IsString()
  @Length(1, 64)
  businessAccountId: string;

  @ApiPropertyOptional({ enum: WHATSAPP_APIS, description: 'Which API sends for this number: CLOUD_API (WhatsApp Cloud API) or SANDBOX (the default)' })
  @Optional()
  @IsIn(WHATSAPP_APIS)
  provider?: WhatsappApi;

  @ApiPropertyOptional({ minLength: 1, maxLength: 256, description: "The Meta app's secret its webhooks are signed with (sealed, never returned); WHATSAPP_APP_SECRET when absent" })
  @Optional()
  @IsString()
  @Length(1, 256)
  appSecret?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 256, description: "The webhook handshake's hub.verify_token (sealed, never returned); WHATSAPP_WEBHOOK_VERIFY_TOKEN when absent" })
  @Optional()
  @IsString()
  @Length(1, 256)
  verifyToken?: string;
}

export class ConnectWhatsappSenderDto {
  @ApiProperty({ pattern: E164.source, description: 'The number to connect, E.164', example: '+14155550123' })
  @IsString()
  @Matches(E164, { message: 'phoneNumber must be E.164 (+ and 7 to 15 digits)' })
  phoneNumber: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 64, description: 'How the number is shown (default: the E.164 number)', example: '+1 415-555-0123' })
  @Optional()
  @IsString()
  @Length(1, 64)
  phoneDisplay?: string;

  @ApiPropertyOptional({ description: "Make it the workspace's default sender (the first sender always is)" })
  @Optional()
  @IsBoolean()
  isDefault?: boolean;

  @ApiProperty({ type: WhatsappCredentialsDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => WhatsappCredentialsDto)
  credentials: WhatsappCredentialsDto;
}

export class UpdateWhatsappSenderDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 64, example: '+1 415-555-0123' })
  @Optional()
  @IsString()
  @Length(1, 64)
  phoneDisplay?: string;

  @ApiPropertyOptional({ description: 'true makes it the default sender (the previous default stops being one); false is refused on the default' })
  @Optional()
  @IsBoolean()
  isDefault?: boolean;
}

export class WhatsappSenderResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['SHARED', 'DEDICATED'], description: "Whose WhatsApp Business account sends: the platform's or the workspace's own" }) mode: string;
  @ApiProperty({ enum: ['CONNECTING', 'CONNECTED', 'FAILED'] }) status: string;
  @ApiProperty({ enum: ['PLATFORM_SHARED', 'OWN_NUMBER'] }) numberSource: string;
  @ApiProperty() isDefault: boolean;
  @ApiProperty({ example: '+1 415-555-0123' }) phoneDisplay: string;
  @ApiProperty({ description: 'The workspace gave its own credentials (never returned)' }) hasCredentials: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null until CONNECTED' }) connectedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The provider's verified business name; null until CONNECTED" }) verifiedName: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The provider's quality rating (GREEN, YELLOW, RED); null until CONNECTED", example: 'GREEN' })
  qualityRating: string | null;
}

export class WhatsappSenderListResponse {
  @ApiProperty({ type: [WhatsappSenderResponse] }) senders: WhatsappSenderResponse[];
}

// ---------------------------------------------------------------------------------------------
// Messages (GET /whatsapp/messages; the contract names the window, not the fields: decisions.md 30.16)

export class MessageResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['WHATSAPP', 'EMAIL'] }) channel: string;
  @ApiProperty({ enum: MESSAGE_DIRECTIONS, description: 'OUTBOUND: sent by the workspace; INBOUND: a reply received' }) direction: string;
  @ApiProperty({ enum: MESSAGE_STATUSES, description: 'OUTBOUND: QUEUED → SENT → DELIVERED → READ, or FAILED; INBOUND: RECEIVED' }) status: string;
  @ApiProperty({ format: 'uuid', description: 'The sender (number or mailbox) it was sent from or received on' }) senderId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The template it was rendered from; null for inbound messages' }) templateId: string | null;
  @ApiProperty({ description: "The contact's address: the recipient of an outbound message, the author of an inbound one", example: '+14155550123' })
  contact: string;
  @ApiProperty({ description: 'The text as the contact sees it', example: 'Hi Ada, your order A-17 is on its way.' }) text: string;
  @ApiProperty({ type: String, nullable: true, description: 'Email only' }) subject: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Inbound: the outbound message it answers, when the provider says' }) inReplyToId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why it FAILED' }) failureReason: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) sentAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) readAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) failedAt: string | null;
}

export class MessageListResponse {
  @ApiProperty({ type: [MessageResponse], maxItems: 200, description: 'The latest 200, newest first' }) messages: MessageResponse[];
}

// ---------------------------------------------------------------------------------------------
// WhatsApp templates

class WhatsappTemplateFieldsDto {
  @ApiProperty({ required: false, minLength: 1, maxLength: 512, pattern: TEMPLATE_NAME.source, example: 'order_update' })
  @IsString()
  @Length(1, 512)
  @Matches(TEMPLATE_NAME, { message: 'name must be lower-case letters, digits and underscores' })
  name?: string;

  @ApiProperty({ required: false, minLength: 2, maxLength: 6, pattern: LANGUAGE.source, example: 'en_US' })
  @IsString()
  @Length(2, 6)
  @Matches(LANGUAGE, { message: 'language must look like en or en_US' })
  language?: string;

  @ApiProperty({ required: false, enum: TEMPLATE_CATEGORIES, example: 'UTILITY' })
  @IsIn(TEMPLATE_CATEGORIES)
  category?: TemplateCategory;

  @ApiProperty({ required: false, minLength: 1, maxLength: 1024, example: 'Hi {{1}}, your order {{2}} is on its way.' })
  @IsString()
  @Length(1, 1024)
  body?: string;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 60, example: 'Reply STOP to opt out' })
  @Nullable()
  @IsString()
  @Length(1, 60)
  footer?: string | null;

  @ApiPropertyOptional(bindingsProperty)
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_PLACEHOLDERS)
  @ValidateNested({ each: true })
  @Type(() => VariableBindingDto)
  bindings?: VariableBindingDto[];
}

export class CreateWhatsappTemplateDto extends WhatsappTemplateFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: 512, pattern: TEMPLATE_NAME.source, example: 'order_update' }) override name: string;
  @ApiProperty({ minLength: 2, maxLength: 6, pattern: LANGUAGE.source, example: 'en_US' }) override language: string;
  @ApiProperty({ enum: TEMPLATE_CATEGORIES, example: 'UTILITY' }) override category: TemplateCategory;
  @ApiProperty({ minLength: 1, maxLength: 1024, example: 'Hi {{1}}, your order {{2}} is on its way.' }) override body: string;
}

for (const key of ['name', 'language', 'category', 'body'] as const) IsDefined()(CreateWhatsappTemplateDto.prototype, key);

export class UpdateWhatsappTemplateDto extends WhatsappTemplateFieldsDto {}
for (const key of ['name', 'language', 'category', 'body'] as const) Optional()(UpdateWhatsappTemplateDto.prototype, key);

export class WhatsappTemplateResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'order_update' }) name: string;
  @ApiProperty({ example: 'en_US' }) language: string;
  @ApiProperty({ enum: TEMPLATE_CATEGORIES }) category: string;
  @ApiProperty() body: string;
  @ApiProperty({ type: String, nullable: true }) footer: string | null;
  @ApiProperty({ type: [VariableBindingDto] }) bindings: VariableBindingDto[];
  @ApiProperty({ enum: ['DRAFT', 'PENDING', 'APPROVED', 'REJECTED'] }) status: string;
  @ApiProperty({ type: String, nullable: true, description: "The provider's reason when REJECTED" }) rejectionReason: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) submittedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) reviewedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class WhatsappTemplateListResponse {
  @ApiProperty({ type: [WhatsappTemplateResponse] }) templates: WhatsappTemplateResponse[];
}

// ---------------------------------------------------------------------------------------------
// Email senders

export class SmtpCredentialsDto {
  @ApiProperty({ minLength: 1, maxLength: 253, example: 'smtp.example.com' })
  @IsString()
  @Length(1, 253)
  host: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 65535, example: 587 })
  @IsInt()
  @Min(1)
  @Max(65535)
  port: number;

  @ApiProperty({ minLength: 1, maxLength: 256, example: 'sales@example.com' })
  @IsString()
  @Length(1, 256)
  username: string;

  @ApiProperty({ minLength: 1, maxLength: 1024, description: 'Sealed at rest, never returned' })
  @IsString()
  @Length(1, 1024)
  password: string;

  @ApiPropertyOptional({ description: 'TLS from the start (true, port 465) or STARTTLS (false)', default: false })
  @Optional()
  @IsBoolean()
  secure?: boolean;

  @ApiPropertyOptional({ enum: EMAIL_APIS, description: 'Which sends for this mailbox: SMTP (this server) or SANDBOX (the default: nothing leaves the service)' })
  @Optional()
  @IsIn(EMAIL_APIS)
  provider?: EmailApi;
}

export class CreateEmailSenderDto {
  @ApiProperty({ maxLength: 254, format: 'email', example: 'sales@example.com' })
  @IsString()
  @Length(3, 254)
  @IsEmail({}, { message: 'fromAddress must be an email address' })
  fromAddress: string;

  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Acme Sales' })
  @IsString()
  @Length(1, 100)
  displayName: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 254, format: 'email', example: 'replies@example.com' })
  @Nullable()
  @IsString()
  @Length(3, 254)
  @IsEmail({}, { message: 'replyTo must be an email address' })
  replyTo?: string | null;

  @ApiPropertyOptional({ description: "Make it the workspace's default mailbox (the first one always is)" })
  @Optional()
  @IsBoolean()
  isDefault?: boolean;

  @ApiProperty({ type: SmtpCredentialsDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => SmtpCredentialsDto)
  smtp: SmtpCredentialsDto;
}

export class UpdateEmailSenderDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Optional()
  @IsString()
  @Length(1, 100)
  displayName?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 254, format: 'email' })
  @Nullable()
  @IsString()
  @Length(3, 254)
  @IsEmail({}, { message: 'replyTo must be an email address' })
  replyTo?: string | null;

  @ApiPropertyOptional({ description: 'true makes it the default mailbox; false is refused on the default' })
  @Optional()
  @IsBoolean()
  isDefault?: boolean;

  @ApiPropertyOptional({ type: SmtpCredentialsDto, description: 'New SMTP credentials (replace the sealed ones)' })
  @Optional()
  @ValidateNested()
  @Type(() => SmtpCredentialsDto)
  smtp?: SmtpCredentialsDto;
}

export class EmailSenderResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) fromAddress: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ type: String, nullable: true, format: 'email' }) replyTo: string | null;
  @ApiProperty() isDefault: boolean;
  @ApiProperty({ description: 'SMTP credentials are stored (never returned)' }) hasCredentials: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class EmailSenderListResponse {
  @ApiProperty({ type: [EmailSenderResponse] }) senders: EmailSenderResponse[];
}

// ---------------------------------------------------------------------------------------------
// Email templates

class EmailTemplateFieldsDto {
  @ApiProperty({ required: false, minLength: 1, maxLength: 100, example: 'Spring offer' })
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiProperty({ required: false, minLength: 1, maxLength: 200, example: 'A spring offer for {{1}}' })
  @IsString()
  @Length(1, 200)
  subject?: string;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 100_000, example: '<p>Hi {{1}}</p>' })
  @Nullable()
  @IsString()
  @Length(1, 100_000)
  htmlBody?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 50_000, example: 'Hi {{1}}' })
  @Nullable()
  @IsString()
  @Length(1, 50_000)
  textBody?: string | null;

  @ApiPropertyOptional(bindingsProperty)
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_PLACEHOLDERS)
  @ValidateNested({ each: true })
  @Type(() => VariableBindingDto)
  bindings?: VariableBindingDto[];

  @ApiPropertyOptional({ description: 'The default template is what an EMAIL campaign sends (the first template always is)' })
  @Optional()
  @IsBoolean()
  isDefault?: boolean;
}

export class CreateEmailTemplateDto extends EmailTemplateFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Spring offer' }) override name: string;
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'A spring offer for {{1}}' }) override subject: string;
}

for (const key of ['name', 'subject'] as const) IsDefined()(CreateEmailTemplateDto.prototype, key);

export class UpdateEmailTemplateDto extends EmailTemplateFieldsDto {}
for (const key of ['name', 'subject'] as const) Optional()(UpdateEmailTemplateDto.prototype, key);

export class EmailTemplateResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() subject: string;
  @ApiProperty({ type: String, nullable: true }) htmlBody: string | null;
  @ApiProperty({ type: String, nullable: true }) textBody: string | null;
  @ApiProperty({ type: [VariableBindingDto] }) bindings: VariableBindingDto[];
  @ApiProperty() isDefault: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class EmailTemplateListResponse {
  @ApiProperty({ type: [EmailTemplateResponse] }) templates: EmailTemplateResponse[];
}
