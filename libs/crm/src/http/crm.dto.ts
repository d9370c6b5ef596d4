import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNumber, IsOptional, IsPositive, IsString, Length, Max, registerDecorator, ValidateIf, ValidateNested } from 'class-validator';
import { CRM_IMPORT_STATUSES } from '../domain/crm-import';
import { MAX_MAPPINGS } from '../domain/field-mapping';
import { ORDER_EVENTS, ORDER_PRESET_NAMES, OrderEvent, OrderPresetName } from '../domain/order-rule';

/** A flat object of text members (credentials): at most 10, keys 1-64, values 1-4096 characters. */
function IsCredentials() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isCredentials',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} must be an object of at most 10 text members (keys 1-64, values 1-4096 characters)` },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= 10 &&
          Object.entries(value).every(([k, v]) => k.length >= 1 && k.length <= 64 && typeof v === 'string' && v.length >= 1 && v.length <= 4096),
      },
    });
}

export class CrmCapabilitiesResponse {
  @ApiProperty() contacts: boolean;
  @ApiProperty() segments: boolean;
  @ApiProperty() orders: boolean;
}

export class CrmProviderResponse {
  @ApiProperty({ example: 'sandbox' }) slug: string;
  @ApiProperty({ example: 'Sandbox CRM' }) name: string;
  @ApiProperty({ enum: ['API_KEY', 'OAUTH'] }) authType: string;
  @ApiProperty() supportsWebhooks: boolean;
  @ApiProperty({ type: CrmCapabilitiesResponse }) capabilities: CrmCapabilitiesResponse;
  @ApiProperty({ type: [String], description: 'Members of `credentials` an API-key connect takes', example: ['apiKey', 'webhookSecret'] }) credentialFields: string[];
  @ApiProperty({ type: [String], description: 'Record fields a mapping may name as its source' }) fields: string[];
}

export class CrmProvidersResponse {
  @ApiProperty({ type: [CrmProviderResponse] }) providers: CrmProviderResponse[];
}

export class ConnectCrmDto {
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'sandbox', description: 'A slug of GET /crm/providers (404 unknown_crm otherwise)' })
  @IsString()
  @Length(1, 64)
  slug: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: "The provider's credentials (see credentialFields), verified with the provider before they are stored sealed; never shown again",
    example: { apiKey: 'valid', webhookSecret: 'whsec-123' },
  })
  @IsCredentials()
  credentials: Record<string, string>;
}

export class WebhookTopicFailureResponse {
  @ApiProperty() topic: string;
  @ApiProperty() reason: string;
}

export class WebhookTopicsResponse {
  @ApiProperty({ type: [String] }) subscribed: string[];
  @ApiProperty({ type: [WebhookTopicFailureResponse] }) failed: WebhookTopicFailureResponse[];
  @ApiProperty({ format: 'date-time' }) checkedAt: string;
}

export class CrmConnectionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'sandbox' }) slug: string;
  @ApiProperty({ example: 'Sandbox CRM' }) name: string;
  @ApiProperty({ enum: ['ACTIVE', 'DISCONNECTED'] }) status: string;
  @ApiProperty({ description: "An e-mail address of the provider account ('' when the provider does not tell)" }) providerEmail: string;
  @ApiProperty({ format: 'date-time' }) connectedAt: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What the provider says about the account (names, domains)' }) display: Record<string, unknown>;
  @ApiProperty() hasWebhookSecret: boolean;
  @ApiProperty({ description: 'Where the CRM sends its webhooks: PUBLIC_BASE_URL + /crm/webhooks/{id}' }) webhookUrl: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Webhook events kept until a CRM_WEBHOOK campaign of this connection runs' }) deferredEventCount: number;
  @ApiProperty({ type: [String] }) missingScopes: string[];
  @ApiProperty({ type: WebhookTopicsResponse }) webhookTopics: WebhookTopicsResponse;
}

export class CrmConnectionsResponse {
  @ApiProperty({ type: [CrmConnectionResponse] }) connections: CrmConnectionResponse[];
}

export class FieldMappingDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'A field of the provider (its `fields`); else 400 invalid_mapping_source', example: 'company' })
  @IsString()
  @Length(1, 100)
  source: string;

  @ApiProperty({ minLength: 1, maxLength: 100, description: 'phone, name, altPhone or fields.<key> (a contact variable); else 400 invalid_mapping_target', example: 'fields.company' })
  @IsString()
  @Length(1, 100)
  target: string;
}

export class FieldMappingsDto {
  @ApiProperty({ type: [FieldMappingDto], maxItems: MAX_MAPPINGS, description: 'Replaces the mappings; [] restores the defaults' })
  @IsArray()
  @ArrayMaxSize(MAX_MAPPINGS)
  @ValidateNested({ each: true })
  @Type(() => FieldMappingDto)
  mappings: FieldMappingDto[];
}

export class FieldMappingResponse {
  @ApiProperty() source: string;
  @ApiProperty() target: string;
}

export class FieldMappingsResponse {
  @ApiProperty({ type: [FieldMappingResponse] }) mappings: FieldMappingResponse[];
}

export class CrmSegmentResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Records in it, when the CRM tells' }) size: number | null;
}

export class CreateCrmImportDto {
  @ApiProperty({ format: 'uuid', description: 'An ACTIVE CRM connection of the workspace', maxLength: 100 })
  @IsString()
  @Length(1, 100)
  connectionId: string;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 100, description: "A segment (list, saved search, filter) of the CRM; null: all contacts; absent: the campaign's defaultCrmSegmentId when the connection is the campaign's defaultCrmConnectionId (or it has none), else all contacts", example: 'seg-5000' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  segmentId?: string | null;
}

export class CrmImportResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiProperty({ format: 'uuid' }) connectionId: string;
  @ApiProperty({ type: String, nullable: true }) segmentId: string | null;
  @ApiProperty({ enum: CRM_IMPORT_STATUSES }) status: string;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100 }) progress: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Records in the segment, when the CRM tells' }) total: number | null;
  @ApiProperty({ type: 'integer', description: 'Records read from the CRM' }) read: number;
  @ApiProperty({ type: 'integer', description: 'New contacts' }) imported: number;
  @ApiProperty({ type: 'integer', description: 'Records whose phone the campaign had already' }) duplicates: number;
  @ApiProperty({ type: 'integer', description: 'Records without a usable phone' }) invalid: number;
  @ApiProperty({ type: 'integer', description: 'Pages read' }) pages: number;
  @ApiProperty({ type: String, nullable: true, description: 'The error code of a failed import' }) error: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt: string | null;
}

export class CrmWebhookReceiptResponse {
  @ApiProperty({ type: 'integer' }) received: number;
  @ApiProperty({ type: 'integer', description: 'New events added to the running CRM_WEBHOOK campaign' }) delivered: number;
  @ApiProperty({ type: 'integer', description: 'New events kept until a CRM_WEBHOOK campaign of the connection runs' }) deferred: number;
  @ApiProperty({ type: 'integer', description: 'Events seen before (same record and phone)' }) duplicates: number;
  @ApiProperty({ type: 'integer', description: 'Records without a usable phone' }) invalid: number;
  @ApiProperty({ type: 'integer', description: 'Shop orders stored (new or updated)' }) orders: number;
  @ApiProperty({ type: 'integer', description: 'Order notifications written by the order-notification rules (the worker sends them)' }) notifications: number;
}

/** Page-number paging of GET /commerce/orders, read as text so the use case answers 400 invalid_params (decisions.md 31.12). */
export class CommerceOrdersQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1, description: '1-based page; else 400 invalid_params' })
  @IsOptional()
  @IsString()
  page?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Orders per page, 1–100; else 400 invalid_params' })
  @IsOptional()
  @IsString()
  limit?: string;
}

export class CommerceOrderResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) connectionId: string;
  @ApiProperty({ description: "The shop's order id" }) externalId: string;
  @ApiProperty({ example: '#1001' }) name: string;
  @ApiProperty({ type: String, nullable: true }) customerName: string | null;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
  @ApiProperty({ type: String, nullable: true }) phone: string | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ minimum: 0, description: "The order's total in the currency's major unit" }) totalValue: number;
  @ApiProperty({ type: String, nullable: true }) financialStatus: string | null;
  @ApiProperty({ type: String, nullable: true }) fulfillmentStatus: string | null;
  @ApiProperty({ description: 'Paid on delivery' }) cod: boolean;
  @ApiProperty({ format: 'date-time' }) orderedAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class CommerceOrdersPage {
  @ApiProperty({ type: [CommerceOrderResponse] }) items: CommerceOrderResponse[];
  @ApiProperty({ type: 'integer', minimum: 1 }) page: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100 }) limit: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) total: number;
}

export class OrderUpdatesSummaryQueryDto {
  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 365, default: 30, description: 'The window in days, 0 < days ≤ 365; else 400 invalid_query' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(365)
  days?: number;
}

export class OrderUpdatesSummaryResponse {
  @ApiProperty({ type: 'integer', minimum: 0 }) orders: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) ordersWithPhone: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) ordersNotified: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) attempted: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) delivered: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) read: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) failed: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) clicks: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) replies: number;
  @ApiProperty({ minimum: 0 }) spend: number;
  @ApiProperty({ minimum: 0 }) costPerNotifiedOrder: number;
  @ApiProperty({ minimum: 0 }) medianMinutesToFirstUpdate: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) optOuts: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) shippedNotified: number;
  @ApiProperty({ minimum: 0 }) notifiedValue: number;
  @ApiProperty({ minimum: 0 }) totalValue: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) codOrders: number;
  @ApiProperty({ type: [String] }) currencies: string[];
}

const RULE_TEMPLATE = 'A WhatsApp template of the workspace (400 template_not_found otherwise); exclusive with preset';
const RULE_PRESET = `A built-in update (${ORDER_PRESET_NAMES.join(', ')}): the service writes it as a template of the workspace and submits it for review; exclusive with templateId`;

/** POST /crm/connections/{id}/order-rules: neither templateId nor preset → 400 template_or_preset_required (the use case). */
export class CreateOrderRuleDto {
  @ApiProperty({ enum: ORDER_EVENTS, description: 'The order event that sends the message' })
  @IsIn(ORDER_EVENTS)
  event: OrderEvent;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid', maxLength: 100, description: RULE_TEMPLATE })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  templateId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ORDER_PRESET_NAMES, description: RULE_PRESET })
  @IsOptional()
  @IsIn(ORDER_PRESET_NAMES)
  preset?: OrderPresetName | null;

  @ApiPropertyOptional({ default: true, description: 'A disabled rule sends nothing' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** PATCH: any of the members (templateId and preset replace one another). */
export class UpdateOrderRuleDto {
  @ApiPropertyOptional({ enum: ORDER_EVENTS })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(ORDER_EVENTS)
  event?: OrderEvent;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid', maxLength: 100, description: RULE_TEMPLATE })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  templateId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ORDER_PRESET_NAMES, description: RULE_PRESET })
  @IsOptional()
  @IsIn(ORDER_PRESET_NAMES)
  preset?: OrderPresetName | null;

  @ApiPropertyOptional()
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  enabled?: boolean;
}

export class OrderRuleResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) connectionId: string;
  @ApiProperty({ enum: ORDER_EVENTS }) event: string;
  @ApiProperty({ format: 'uuid', description: "The template sent (a preset's own template when a preset was chosen)" }) templateId: string;
  @ApiProperty({ type: String, nullable: true, enum: ORDER_PRESET_NAMES }) preset: string | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class OrderRulesResponse {
  @ApiProperty({ type: [OrderRuleResponse] }) rules: OrderRuleResponse[];
}
