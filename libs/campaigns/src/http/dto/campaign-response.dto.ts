import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CAMPAIGN_CHANNELS, CAMPAIGN_SOURCES, EXTRACTION_MODES } from '../../domain/campaign-kinds';
import { CAMPAIGN_STATUSES } from '../../domain/campaign-state-machine';
import { EvaluationMetricResponse, ExtractionKeyResponse } from './extraction.dto';

class WhatsappAutomationResponse {
  @ApiProperty() key: string;
  @ApiProperty() label: string;
  @ApiProperty() detail: string;
}

class OutreachRuleConditionResponse {
  @ApiProperty() kind: string;
  @ApiProperty() describe: string;
}

class OutreachRuleResponse {
  @ApiProperty({ example: 'MESSAGE_REPLY' }) trigger: string;
  @ApiProperty({ type: 'integer' }) afterDays: number;
  @ApiProperty({ type: OutreachRuleConditionResponse }) condition: OutreachRuleConditionResponse;
  @ApiProperty({ type: [OutreachRuleConditionResponse] }) conditions: OutreachRuleConditionResponse[];
  @ApiProperty({ example: 'ALL' }) match: string;
  @ApiProperty({ example: 'HAND_OFF' }) action: string;
}

const nullableString = { type: String, nullable: true } as const;
const nullableDate = { type: String, nullable: true, format: 'date-time' } as const;

/** The campaign object (spec: Campaign), returned by every campaign route. */
export class CampaignResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty(nullableString) agentId: string | null;
  @ApiProperty(nullableString) agentName: string | null;
  @ApiProperty({ enum: CAMPAIGN_STATUSES }) status: string;
  @ApiProperty({ enum: CAMPAIGN_CHANNELS }) channel: string;
  @ApiProperty({ enum: CAMPAIGN_SOURCES }) source: string;
  @ApiProperty({ type: 'integer' }) reservedConcurrency: number;
  @ApiProperty() allowBurst: boolean;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) variableMap: Record<string, string>;
  @ApiProperty(nullableDate) startedAt: string | null;
  @ApiProperty(nullableDate) endedAt: string | null;
  @ApiProperty({
    ...nullableString,
    example: 'user',
    description: 'Why a PAUSED campaign is paused: `user` (POST …/pause), or the service\'s reason, e.g. `no_usable_caller_id` (no caller id on an enabled carrier), `circuit_open` (too many carrier failures), `budget_reached` (budgetMinor cannot pay for another call). Null in every other status.',
  })
  pauseReason: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty(nullableString) campaignTypeId: string | null;
  @ApiProperty(nullableString) campaignTypeName: string | null;
  @ApiProperty({ type: [ExtractionKeyResponse] }) customExtractionKeys: ExtractionKeyResponse[];
  @ApiProperty({ enum: EXTRACTION_MODES }) customExtractionKeysMode: string;
  @ApiProperty({ type: [ExtractionKeyResponse], description: 'Type keys combined with custom keys per customExtractionKeysMode' })
  effectiveExtractionKeys: ExtractionKeyResponse[];
  @ApiProperty({ type: [String] }) notificationUserIds: string[];
  @ApiProperty(nullableString) defaultCrmConnectionId: string | null;
  @ApiProperty(nullableString) defaultCrmSegmentId: string | null;
  @ApiProperty(nullableString) description: string | null;
  @ApiProperty(nullableString) workflowId: string | null;
  @ApiProperty(nullableString) countryCode: string | null;
  @ApiProperty(nullableString) phoneColumn: string | null;
  @ApiProperty(nullableString) uploadId: string | null;
  @ApiProperty() timezone: string;
  @ApiProperty(nullableString) goal: string | null;
  @ApiProperty(nullableString) briefFileName: string | null;
  @ApiProperty(nullableString) briefText: string | null;
  @ApiProperty(nullableDate) scheduledStartAt: string | null;
  @ApiProperty(nullableDate) scheduledEndAt: string | null;
  @ApiProperty(nullableDate) briefUploadedAt: string | null;
  @ApiProperty({ pattern: '^\\d{2}:\\d{2}$' }) dailyWindowStart: string;
  @ApiProperty({ pattern: '^\\d{2}:\\d{2}$' }) dailyWindowEnd: string;
  @ApiProperty(nullableString) whatsappOutreachTemplateId: string | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true }) whatsappTemplateByMetric: Record<string, unknown> | null;
  @ApiProperty() messageDeclinedLeads: boolean;
  @ApiProperty() whatsappEnabled: boolean;
  @ApiProperty() whatsappPaymentLinkEnabled: boolean;
  @ApiProperty() recoveryLinkEnabled: boolean;
  @ApiProperty() removeInvalidRows: boolean;
  @ApiProperty() transliterateCalleeNames: boolean;
  @ApiProperty() followupEnabled: boolean;
  @ApiProperty() churnEnabled: boolean;
  @ApiProperty() incompleteRetryEnabled: boolean;
  @ApiProperty() skipRetryOnFirstVoicemail: boolean;
  @ApiProperty() messageRetryEnabled: boolean;
  @ApiProperty() messageRetryTieredEnabled: boolean;
  @ApiProperty() autoReseedEnabled: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) dailyMessageCap: number | null;
  @ApiProperty({ type: 'integer' }) retryCount: number;
  @ApiProperty({ type: 'integer' }) cooldownMinutes: number;
  @ApiProperty({ type: 'integer' }) retryConcurrencyPercent: number;
  @ApiProperty({ type: 'integer' }) followupMaxAttempts: number;
  @ApiProperty({ type: 'integer' }) churnMaxAttempts: number;
  @ApiProperty({ type: 'integer' }) churnIntervalHours: number;
  @ApiProperty({ type: 'integer' }) incompleteRetryMaxAttempts: number;
  @ApiProperty({ type: 'integer' }) incompleteRetryIntervalMinutes: number;
  @ApiProperty({ type: 'integer' }) incompleteCallSeconds: number;
  @ApiProperty({ type: 'integer' }) referralMaxDepth: number;
  @ApiProperty({ type: 'integer' }) messageRetryMaxAttempts: number;
  @ApiProperty({ type: 'integer' }) messageRetryIntervalSeconds: number;
  @ApiProperty({ type: 'integer' }) messageRetryWindowSeconds: number;
  @ApiProperty({ type: 'integer' }) messageRetryTransientMaxAttempts: number;
  @ApiProperty({ type: 'integer', nullable: true }) dailyDialCap: number | null;
  @ApiProperty({ type: 'integer' }) circuitBreakerWindow: number;
  @ApiProperty({ type: 'integer' }) circuitBreakerFailurePercent: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Spend guard in minor units; null = no budget' }) budgetMinor: number | null;
  @ApiProperty({
    oneOf: [
      { type: 'string', enum: ['off'] },
      { type: 'object', required: ['start', 'end'], properties: { start: { type: 'string', pattern: '^\\d{2}:\\d{2}$' }, end: { type: 'string', pattern: '^\\d{2}:\\d{2}$' } } },
    ],
    description: 'Recipient-local calling hours, or "off"',
  })
  recipientHours: 'off' | { start: string; end: string };
  @ApiProperty({ description: "No calls on the recipient's public holidays" }) skipHolidays: boolean;
  @ApiProperty({ type: 'integer' }) contactCount: number;
  @ApiProperty({ type: 'integer' }) receivedCalls: number;
  @ApiProperty({ type: 'integer', isArray: true }) retryDelaysMinutes: number[];
  @ApiProperty({ type: 'integer', isArray: true }) churnDelaysHours: number[];
  @ApiProperty({ type: 'integer', isArray: true }) incompleteRetryDelaysMinutes: number[];
  @ApiProperty({ type: 'integer', isArray: true }) messageRetryDelaysSeconds: number[];
  @ApiProperty({ type: 'integer', isArray: true }) dialDays: number[];
  @ApiProperty({ type: [String] }) whatsappAgentTemplateIds: string[];
  @ApiProperty({ type: [String] }) altPhoneColumns: string[];
  @ApiProperty({ type: [WhatsappAutomationResponse] }) whatsappAutomations: WhatsappAutomationResponse[];
  @ApiProperty({ type: [OutreachRuleResponse] }) outreachRules: OutreachRuleResponse[];
  @ApiProperty({ type: [EvaluationMetricResponse] }) evaluationMetrics: EvaluationMetricResponse[];
}

export class ImportSummaryResponse {
  @ApiProperty({ type: 'integer', description: 'Data rows read' }) rows: number;
  @ApiProperty({ type: 'integer', description: 'New contacts' }) imported: number;
  @ApiProperty({ type: 'integer', description: 'Rows whose phone the campaign already had' }) duplicates: number;
  @ApiProperty({ type: 'integer', description: 'Rows without a valid phone, dropped (removeInvalidRows)' }) invalid: number;
}

/** Create and PATCH answer the campaign; `import` reports an upload imported by the same request. */
export class CampaignWithImportResponse extends CampaignResponse {
  @ApiPropertyOptional({ type: ImportSummaryResponse }) import?: ImportSummaryResponse;
}

export class CampaignListResponse {
  @ApiProperty({ type: [CampaignResponse] }) campaigns: CampaignResponse[];
}
