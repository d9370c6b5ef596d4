import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsString, IsUUID, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { LIVE_EDIT_FIELDS } from '../../domain/campaign.aggregate';
import { CAMPAIGN_CHANNELS, CampaignChannel } from '../../domain/campaign-kinds';
import {
  MAX_OUTREACH_RULES,
  MAX_RULE_CONDITIONS,
  OUTREACH_CONDITION_KINDS,
  OUTREACH_RULE_ACTIONS,
  OUTREACH_RULE_MATCHES,
  OUTREACH_RULE_TRIGGERS,
} from '../../domain/outreach-rules';
import { CampaignFieldsDto } from './campaign-body.dto';
import { Optional } from './validators';

/**
 * Bodies of the live edits (decisions.md 34.1). Each picks its fields from PATCH's DTO, so the
 * bounds (decisions.md 13.3) are PATCH's own, declared once; an unknown member is 400 invalid_body.
 */
export class ScheduleEditDto extends named(PickType(CampaignFieldsDto, LIVE_EDIT_FIELDS.editSchedule), 'ScheduleEditDto') {}

export class MetricsEditDto extends named(PickType(CampaignFieldsDto, LIVE_EDIT_FIELDS.editMetrics), 'MetricsEditDto') {}

/**
 * PickType's class named like the DTO that extends it: the picked validators live on PickType's
 * class, and the document's schemas are tightened from the validators of the class bearing the
 * schema's name (libs/platform openapi: validatedClassesByName); a subclass without members of its
 * own carries none.
 */
function named<T extends abstract new (...args: never[]) => unknown>(cls: T, name: string): T {
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

export class OutreachRuleConditionDto {
  @ApiProperty({ enum: OUTREACH_CONDITION_KINDS, description: 'ai_interested / ai_not_interested: judged by the analysis port; any_reply: every reply' })
  @IsIn(OUTREACH_CONDITION_KINDS)
  kind: string;

  @ApiProperty({ maxLength: 500, description: 'What the condition means, in words: the question the analysis port is asked for ai_* kinds' })
  @IsString()
  @MaxLength(500)
  describe: string;
}

export class OutreachRuleDto {
  @ApiProperty({ enum: OUTREACH_RULE_TRIGGERS })
  @IsIn(OUTREACH_RULE_TRIGGERS)
  trigger: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 365, default: 0, description: 'Must be 0 for MESSAGE_REPLY (the rule acts on the reply itself)' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(365)
  afterDays?: number;

  @ApiProperty({ type: OutreachRuleConditionDto })
  @ValidateNested()
  @Type(() => OutreachRuleConditionDto)
  condition: OutreachRuleConditionDto;

  @ApiPropertyOptional({ type: [OutreachRuleConditionDto], maxItems: MAX_RULE_CONDITIONS, description: 'Further conditions, combined with `condition` by `match`' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_RULE_CONDITIONS)
  @ValidateNested({ each: true })
  @Type(() => OutreachRuleConditionDto)
  conditions?: OutreachRuleConditionDto[];

  @ApiProperty({ enum: OUTREACH_RULE_MATCHES, description: 'ALL: every condition holds; ANY: one does' })
  @IsIn(OUTREACH_RULE_MATCHES)
  match: string;

  @ApiProperty({ enum: OUTREACH_RULE_ACTIONS, description: 'HAND_OFF: the contact gets no further automated leg; a person takes over' })
  @IsIn(OUTREACH_RULE_ACTIONS)
  action: string;
}

export class OutreachEditDto extends PickType(CampaignFieldsDto, ['whatsappOutreachTemplateId', 'whatsappAgentTemplateIds'] as const) {
  @ApiPropertyOptional({ enum: CAMPAIGN_CHANNELS, description: 'May be sent, but must be the campaign\'s channel (400 campaign_channel_switch_not_supported)' })
  @Optional()
  @IsIn(CAMPAIGN_CHANNELS)
  channel?: CampaignChannel;

  @ApiPropertyOptional({
    type: [OutreachRuleDto],
    maxItems: MAX_OUTREACH_RULES,
    description: 'Replaces the rules; evaluated in order, the first that matches acts. Only channels with a WhatsApp leg (else 400 campaign_channel_has_no_rules); [] clears them',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_OUTREACH_RULES)
  @ValidateNested({ each: true })
  @Type(() => OutreachRuleDto)
  outreachRules?: OutreachRuleDto[];
}

/** POST /campaigns/{id}/remessage (decisions.md 34.6). */
export class RemessageDto {
  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: 5000, description: 'Contacts to message again; without it every COMPLETED and FAILED contact' })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5000)
  @IsUUID('all', { each: true })
  contactIds?: string[];
}

export class RemessageResponse {
  @ApiProperty({ format: 'uuid', description: 'This request; with a contact, the idempotency key of its message' }) remessageId: string;
  @ApiProperty({ type: 'integer', description: 'Contacts a message is queued for' }) queued: number;
  @ApiProperty({ type: 'integer', description: 'Contacts named that are HAND_OFF or DO_NOT_CALL: nothing is sent to them' }) skipped: number;
}
