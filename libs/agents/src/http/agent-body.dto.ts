import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { markStoredNoEffect } from '@outreach/platform';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PROMPT_MAX_LENGTH } from '../domain/agent.aggregate';
import {
  AGENT_TYPES,
  BOOKING_TYPES,
  CLOSING_BEHAVIORS,
  END_CALL_TRIGGERS,
  EXTRACTION_KEY_TYPES,
  FLOW_NODE_TYPES,
  GENDERS,
  GUARDRAILS,
  IDENTIFIER_PATTERN,
  LANGUAGE_SWITCHING,
  OVERRIDE_VALUES,
  PROMPT_SPECS,
  TONES,
  TRANSFER_TRIGGERS,
} from '../domain/agent.types';

/*
 * The agent body's bounds, in one place (spec "Agent", "Abilities", "Flow graph", Limits). Each
 * violation → 400 invalid_body with the path of the offending member. Transfer numbers are checked
 * for E.164 by the aggregate (400 invalid_transfer_number, decisions.md 1.11, 11.8), not here.
 */

/** Optional, but not nullable: absent is fine, `null` is refused. */
const Optional = () => ValidateIf((_: unknown, value: unknown) => value !== undefined);
/** Optional and nullable. */
const Nullable = () => IsOptional();
const NUMBER = { allowNaN: false, allowInfinity: false } as const;
const IDENTIFIER_MESSAGE = 'must match ^[a-zA-Z_][a-zA-Z0-9_]*$';
const NON_EMPTY_IDS = (max: number) => [IsArray(), ArrayMaxSize(max), IsString({ each: true }), MinLength(1, { each: true })];
const apply = (...decorators: PropertyDecorator[]) => (target: object, key: string | symbol) => decorators.forEach((d) => d(target, key));

export class ExtractionKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 64, pattern: IDENTIFIER_PATTERN.source })
  @IsDefined() @IsString() @Length(1, 64) @Matches(IDENTIFIER_PATTERN, { message: `name ${IDENTIFIER_MESSAGE}` })
  name: string;

  @ApiProperty({ enum: EXTRACTION_KEY_TYPES })
  @IsDefined() @IsIn(EXTRACTION_KEY_TYPES)
  type: (typeof EXTRACTION_KEY_TYPES)[number];

  @ApiProperty({ minLength: 1, maxLength: 500 })
  @IsDefined() @IsString() @Length(1, 500)
  description: string;
}

export class ExtractionConfigDto {
  @ApiProperty({ minLength: 1, maxLength: 4000 })
  @IsDefined() @IsString() @Length(1, 4000)
  prompt: string;

  @ApiProperty({ type: () => [ExtractionKeyDto], minItems: 1, maxItems: 64 })
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(64)
  @ArrayUnique((k: ExtractionKeyDto) => k?.name, { message: 'key names must be unique' })
  @ValidateNested({ each: true }) @Type(() => ExtractionKeyDto)
  keys: ExtractionKeyDto[];

  @ApiProperty({ required: false, default: false })
  @Optional() @IsBoolean()
  includeToolLogs?: boolean;
}

export class TransferAbilityDto {
  @ApiProperty({ maxLength: 32, pattern: '^\\+\\d{8,15}$', example: '+14155550100' })
  @IsDefined() @IsString() @MaxLength(32)
  number: string;

  @ApiProperty({ required: false, isArray: true, enum: TRANSFER_TRIGGERS, maxItems: 5 })
  @Optional() @IsArray() @ArrayMaxSize(5) @IsIn(TRANSFER_TRIGGERS, { each: true })
  triggers?: string[];
}

export class BookingAbilityDto {
  @ApiProperty({ isArray: true, enum: BOOKING_TYPES, minItems: 1, maxItems: 3 })
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsIn(BOOKING_TYPES, { each: true })
  types: string[];
}

export class WhatsappAbilityDto {
  @ApiProperty({ type: [String], maxItems: 20 })
  @IsDefined() @apply(...NON_EMPTY_IDS(20))
  collectionIds: string[];

  @ApiProperty({ required: false, type: [String], maxItems: 20 })
  @Optional() @apply(...NON_EMPTY_IDS(20))
  templateIds?: string[];
}

export class AbilitiesDto {
  @ApiProperty({ required: false, type: () => TransferAbilityDto })
  @Optional() @IsObject() @ValidateNested() @Type(() => TransferAbilityDto)
  transfer?: TransferAbilityDto;

  @ApiProperty({ required: false, type: () => BookingAbilityDto })
  @Optional() @IsObject() @ValidateNested() @Type(() => BookingAbilityDto)
  booking?: BookingAbilityDto;

  @ApiProperty({ required: false })
  @Optional() @IsBoolean()
  callback?: boolean;

  @ApiProperty({ required: false, type: () => WhatsappAbilityDto })
  @Optional() @IsObject() @ValidateNested() @Type(() => WhatsappAbilityDto)
  whatsapp?: WhatsappAbilityDto;

  @ApiProperty({ required: false, type: [String], maxItems: 20 })
  @Optional() @apply(...NON_EMPTY_IDS(20))
  knowledgeDocIds?: string[];

  @ApiProperty({ required: false, type: [String], maxItems: 20, description: 'Ids of custom functions of the workspace' })
  @Optional() @apply(...NON_EMPTY_IDS(20))
  functionIds?: string[];
}

export class FlowPositionDto {
  @ApiProperty() @IsDefined() @IsNumber(NUMBER) x: number;
  @ApiProperty() @IsDefined() @IsNumber(NUMBER) y: number;
}

export class FlowNodeDto {
  @ApiProperty({ minLength: 1, maxLength: 64 })
  @IsDefined() @IsString() @Length(1, 64)
  id: string;

  @ApiProperty({ enum: FLOW_NODE_TYPES })
  @IsDefined() @IsIn(FLOW_NODE_TYPES)
  type: (typeof FLOW_NODE_TYPES)[number];

  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsDefined() @IsString() @Length(1, 200)
  title: string;

  @ApiProperty({ required: false, maxLength: 2000 })
  @Optional() @IsString() @MaxLength(2000)
  detail?: string;

  @ApiProperty({ required: false, type: () => FlowPositionDto })
  @Optional() @IsObject() @ValidateNested() @Type(() => FlowPositionDto)
  position?: FlowPositionDto;
}

export class FlowEdgeDto {
  @ApiProperty({ minLength: 1, maxLength: 64 }) @IsDefined() @IsString() @Length(1, 64) id: string;
  @ApiProperty({ minLength: 1, maxLength: 64 }) @IsDefined() @IsString() @Length(1, 64) source: string;
  @ApiProperty({ minLength: 1, maxLength: 64 }) @IsDefined() @IsString() @Length(1, 64) target: string;

  @ApiProperty({ required: false, maxLength: 200 })
  @Optional() @IsString() @MaxLength(200)
  condition?: string;
}

export class FlowGraphDto {
  @ApiProperty({ type: () => [FlowNodeDto], maxItems: 40, description: 'Node ids are unique' })
  @IsDefined() @IsArray() @ArrayMaxSize(40) @ValidateNested({ each: true }) @Type(() => FlowNodeDto)
  nodes: FlowNodeDto[];

  @ApiProperty({ type: () => [FlowEdgeDto], maxItems: 80, description: 'source and target name nodes of the graph' })
  @IsDefined() @IsArray() @ArrayMaxSize(80) @ValidateNested({ each: true }) @Type(() => FlowEdgeDto)
  edges: FlowEdgeDto[];
}

export class FlowStepDto {
  @ApiProperty({ minLength: 1, maxLength: 64 }) @IsDefined() @IsString() @Length(1, 64) id: string;
  @ApiProperty({ minLength: 1, maxLength: 200 }) @IsDefined() @IsString() @Length(1, 200) title: string;

  @ApiProperty({ required: false, maxLength: 2000 })
  @Optional() @IsString() @MaxLength(2000)
  detail?: string;
}

export class FaqDto {
  @ApiProperty({ minLength: 1, maxLength: 500 }) @IsDefined() @IsString() @Length(1, 500) question: string;
  @ApiProperty({ minLength: 1, maxLength: 2000 }) @IsDefined() @IsString() @Length(1, 2000) answer: string;
}

export class StudioOverridesDto {
  @ApiProperty({ required: false, enum: OVERRIDE_VALUES.namesPolicy })
  @Optional() @IsIn(OVERRIDE_VALUES.namesPolicy)
  namesPolicy?: string;

  @ApiProperty({ required: false, enum: OVERRIDE_VALUES.identityConfirm })
  @Optional() @IsIn(OVERRIDE_VALUES.identityConfirm)
  identityConfirm?: string;

  @ApiProperty({ required: false, enum: OVERRIDE_VALUES.silenceHandling })
  @Optional() @IsIn(OVERRIDE_VALUES.silenceHandling)
  silenceHandling?: string;

  @ApiProperty({ required: false, enum: OVERRIDE_VALUES.endCallEtiquette })
  @Optional() @IsIn(OVERRIDE_VALUES.endCallEtiquette)
  endCallEtiquette?: string;

  @ApiProperty({ required: false, enum: OVERRIDE_VALUES.mixRatio })
  @Optional() @IsIn(OVERRIDE_VALUES.mixRatio)
  mixRatio?: string;
}

export class StudioConfigDto {
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsDefined() @IsString() @Length(1, 100) agentName: string;
  @ApiProperty({ required: false, maxLength: 100 }) @Optional() @IsString() @MaxLength(100) industry?: string;
  @ApiProperty({ required: false, maxLength: 100 }) @Optional() @IsString() @MaxLength(100) designation?: string;
  @ApiProperty({ minLength: 1, maxLength: 120 }) @IsDefined() @IsString() @Length(1, 120) companyName: string;
  @ApiProperty({ required: false, maxLength: 4000 }) @Optional() @IsString() @MaxLength(4000) companyDescription?: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: 24, description: 'each 1-40 characters' })
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(24) @IsString({ each: true }) @Length(1, 40, { each: true })
  languages: string[];

  @ApiProperty({ minLength: 1, maxLength: 40 }) @IsDefined() @IsString() @Length(1, 40) primaryLanguage: string;
  @ApiProperty({ enum: GENDERS }) @IsDefined() @IsIn(GENDERS) gender: (typeof GENDERS)[number];
  @ApiProperty({ enum: TONES }) @IsDefined() @IsIn(TONES) tone: (typeof TONES)[number];
  @ApiProperty({ minLength: 1, maxLength: 2000 }) @IsDefined() @IsString() @Length(1, 2000) goal: string;
  @ApiProperty({ required: false, maxLength: 8000 }) @Optional() @IsString() @MaxLength(8000) briefText?: string;
  @ApiProperty({ required: false, maxLength: 2000 }) @Optional() @IsString() @MaxLength(2000) welcomeMessage?: string;

  @ApiProperty({ required: false, isArray: true, enum: GUARDRAILS, maxItems: 10, default: [] })
  @Optional() @IsArray() @ArrayMaxSize(10) @IsIn(GUARDRAILS, { each: true })
  guardrails?: Array<(typeof GUARDRAILS)[number]>;

  @ApiProperty({ type: () => [FlowStepDto], maxItems: 30 })
  @IsDefined() @IsArray() @ArrayMaxSize(30) @ValidateNested({ each: true }) @Type(() => FlowStepDto)
  flowSteps: FlowStepDto[];

  @ApiProperty({ required: false, type: () => FlowGraphDto })
  @Optional() @IsObject() @ValidateNested() @Type(() => FlowGraphDto)
  flowGraph?: FlowGraphDto;

  @ApiProperty({ type: () => [FaqDto], maxItems: 30 })
  @IsDefined() @IsArray() @ArrayMaxSize(30) @ValidateNested({ each: true }) @Type(() => FaqDto)
  faqs: FaqDto[];

  @ApiProperty({ required: false, enum: CLOSING_BEHAVIORS })
  @Optional() @IsIn(CLOSING_BEHAVIORS)
  closingBehavior?: (typeof CLOSING_BEHAVIORS)[number];

  @ApiProperty({ required: false, type: () => AbilitiesDto })
  @Optional() @IsObject() @ValidateNested() @Type(() => AbilitiesDto)
  abilities?: AbilitiesDto;

  @ApiProperty({ required: false, enum: LANGUAGE_SWITCHING })
  @Optional() @IsIn(LANGUAGE_SWITCHING)
  languageSwitching?: (typeof LANGUAGE_SWITCHING)[number];

  @ApiProperty({ required: false, type: [String], maxItems: 40, description: 'each 1-40 characters' })
  @Optional() @IsArray() @ArrayMaxSize(40) @IsString({ each: true }) @Length(1, 40, { each: true })
  keyTerms?: string[];

  @ApiProperty({ required: false, maxLength: 6000 }) @Optional() @IsString() @MaxLength(6000) sampleDialogue?: string;

  @ApiProperty({ required: false, type: 'integer', enum: PROMPT_SPECS })
  @Optional() @IsIn(PROMPT_SPECS)
  promptSpec?: number;

  @ApiProperty({ required: false, type: () => StudioOverridesDto })
  @Optional() @IsObject() @ValidateNested() @Type(() => StudioOverridesDto)
  overrides?: StudioOverridesDto;
}

/**
 * The agent's top-level members with their bounds. Whether a member may be absent or null is
 * declared per request below (AGENT_PRESENCE), so create and update share these bounds.
 */
class AgentFieldsDto {
  @ApiProperty({ required: false, minLength: 1, maxLength: 100 })
  @IsString() @Length(1, 100)
  name?: string;

  @ApiProperty({ required: false, minLength: 1, maxLength: PROMPT_MAX_LENGTH })
  @IsString() @Length(1, PROMPT_MAX_LENGTH)
  prompt?: string;

  @ApiProperty({ required: false, nullable: true, type: String, maxLength: 2000 })
  @IsString() @MaxLength(2000)
  greeting?: string | null;

  @ApiProperty({ required: false, minLength: 1, description: 'A voice id from GET /voices' })
  @IsString() @MinLength(1)
  voice?: string;

  @ApiProperty({ required: false, nullable: true, type: [String], maxItems: 100, description: `each ${IDENTIFIER_MESSAGE}` })
  @IsArray() @ArrayMaxSize(100) @IsString({ each: true })
  @Matches(IDENTIFIER_PATTERN, { each: true, message: `each pre-call variable ${IDENTIFIER_MESSAGE}` })
  preCallVariables?: string[] | null;

  @ApiProperty({ required: false, nullable: true, type: () => ExtractionConfigDto })
  @IsObject() @ValidateNested() @Type(() => ExtractionConfigDto)
  extractionConfig?: ExtractionConfigDto | null;

  @ApiProperty({ required: false, enum: AGENT_TYPES })
  @IsIn(AGENT_TYPES)
  agentType?: (typeof AGENT_TYPES)[number];

  @ApiProperty({ required: false }) @IsBoolean() enableRecording?: boolean;
  @ApiProperty({ required: false }) @IsBoolean() endCallEnabled?: boolean;

  @ApiProperty({ required: false, nullable: true, type: String, maxLength: 500 })
  @IsString() @MaxLength(500)
  endCallMessage?: string | null;

  @ApiProperty({ required: false, nullable: true, isArray: true, enum: END_CALL_TRIGGERS, maxItems: 4 })
  @IsArray() @ArrayMaxSize(4) @IsIn(END_CALL_TRIGGERS, { each: true })
  endCallTriggers?: string[] | null;

  @ApiProperty({ required: false, minimum: 60, maximum: 3600 })
  @IsInt() @Min(60) @Max(3600)
  maxCallDurationSecs?: number;

  @ApiProperty({ required: false, nullable: true, type: String, description: 'An id from GET /background-audio' })
  @IsString()
  backgroundAudioId?: string | null;

  @ApiProperty({ required: false, nullable: true, type: Number, minimum: 0, maximum: 1 })
  @IsNumber(NUMBER) @Min(0) @Max(1)
  backgroundAudioVolume?: number | null;

  @ApiProperty({ required: false }) @IsBoolean() voicemailDetectionEnabled?: boolean;

  @ApiProperty({ required: false, nullable: true, type: String, maxLength: 500 })
  @IsString() @MaxLength(500)
  voicemailMessage?: string | null;

  @ApiProperty({ required: false }) @IsBoolean() screenerHandlingEnabled?: boolean;
  @ApiProperty({ required: false, description: 'Needs transferNumber' }) @IsBoolean() transferEnabled?: boolean;

  @ApiProperty({ required: false, nullable: true, type: String, maxLength: 32, pattern: '^\\+\\d{8,15}$', example: '+14155550100' })
  @IsString() @MaxLength(32)
  transferNumber?: string | null;

  @ApiProperty({ required: false, nullable: true, type: String, maxLength: 500 })
  @IsString() @MaxLength(500)
  transferMessage?: string | null;

  @ApiProperty({ required: false, nullable: true, isArray: true, enum: TRANSFER_TRIGGERS })
  @IsArray() @IsIn(TRANSFER_TRIGGERS, { each: true })
  transferTriggers?: string[] | null;

  @ApiProperty({ required: false, type: () => StudioConfigDto })
  @IsObject() @ValidateNested() @Type(() => StudioConfigDto)
  studioConfig?: StudioConfigDto;

  @ApiProperty({ required: false, nullable: true, type: () => AbilitiesDto })
  @IsObject() @ValidateNested() @Type(() => AbilitiesDto)
  abilities?: AbilitiesDto | null;

  @ApiProperty({ required: false, nullable: true, type: () => FlowGraphDto })
  @IsObject() @ValidateNested() @Type(() => FlowGraphDto)
  flowGraph?: FlowGraphDto | null;
}

type Presence = 'required' | 'optional' | 'nullable';

/** Per member: nullable ones accept null (spec "Agent"), the others only a value or absence. */
const AGENT_PRESENCE: Record<keyof AgentFieldsDto, Presence> = {
  name: 'optional',
  prompt: 'optional',
  greeting: 'nullable',
  voice: 'optional',
  preCallVariables: 'nullable',
  extractionConfig: 'nullable',
  agentType: 'optional',
  enableRecording: 'optional',
  endCallEnabled: 'optional',
  endCallMessage: 'nullable',
  endCallTriggers: 'nullable',
  maxCallDurationSecs: 'optional',
  backgroundAudioId: 'nullable',
  backgroundAudioVolume: 'nullable',
  voicemailDetectionEnabled: 'optional',
  voicemailMessage: 'nullable',
  screenerHandlingEnabled: 'optional',
  transferEnabled: 'optional',
  transferNumber: 'nullable',
  transferMessage: 'nullable',
  transferTriggers: 'nullable',
  studioConfig: 'optional',
  abilities: 'nullable',
  flowGraph: 'nullable',
};

function declarePresence(target: Function, rules: Record<string, Presence>): void {
  for (const [key, rule] of Object.entries(rules)) {
    const decorator = rule === 'required' ? IsDefined() : rule === 'nullable' ? Nullable() : Optional();
    decorator(target.prototype as object, key);
  }
}

const REAL_VOICE = 'issue 11 (real voice: the provider runtime)';

/**
 * Agent fields accepted and stored whose effect open work still owes (docs/settings.md): their
 * OpenAPI description says so. The others reach the assembled system prompt, provisioning, the
 * engine or the analysis.
 */
export const AGENT_FIELDS_OWED: Readonly<Record<string, string>> = {
  enableRecording: REAL_VOICE,
  backgroundAudioId: REAL_VOICE,
  backgroundAudioVolume: REAL_VOICE,
  screenerHandlingEnabled: REAL_VOICE,
  transferNumber: REAL_VOICE,
  flowGraph: REAL_VOICE,
  abilities: 'issue 11 (transfer and booking at the voice runtime) and issue 12 (WhatsApp)',
};
markStoredNoEffect(AgentFieldsDto, AGENT_FIELDS_OWED);

/** PATCH /agents/{id}: every member optional (at least one required); nullable ones accept null. */
export class UpdateAgentDto extends AgentFieldsDto {}
declarePresence(UpdateAgentDto, AGENT_PRESENCE);

/** POST /agents: name and voice required; prompt required unless studioConfig can assemble it. */
export class CreateAgentDto extends AgentFieldsDto {
  @ApiProperty({ required: true, minLength: 1, maxLength: 100 })
  override name: string;

  @ApiProperty({ required: false, minLength: 1, maxLength: PROMPT_MAX_LENGTH, description: 'Assembled from studioConfig when absent' })
  override prompt?: string;

  @ApiProperty({ required: true, minLength: 1, description: 'A voice id from GET /voices' })
  override voice: string;
}
declarePresence(CreateAgentDto, { ...AGENT_PRESENCE, name: 'required', voice: 'required' });
