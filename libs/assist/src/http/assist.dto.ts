import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OffsetPageQuery } from '@outreach/platform';
import { ANALYSIS_STATUSES, CALL_KINDS } from '@outreach/calls';
import { CampaignResponse } from '@outreach/campaigns';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsString,
  IsUUID,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { BRIEF_CHARS_STORED } from '../domain/brief';
import { MAX_CHAT_MESSAGE_CHARS } from '../domain/chat';

/** The member may be absent; when present it must pass the other decorators (null is refused). */
const Optional = () => ValidateIf((_object, value) => value !== undefined);

// ---- briefs ------------------------------------------------------------------------------------

/** POST /campaigns/from-brief: the form fields (multipart) or the JSON body. */
export class FromBriefDto {
  @ApiPropertyOptional({ maxLength: BRIEF_CHARS_STORED, description: 'The brief as text (with a file: notes appended to its text)' })
  @Optional()
  @IsString()
  @MaxLength(BRIEF_CHARS_STORED)
  briefText?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 64, description: 'Voice agent of the draft (400 agent_not_found when unknown)' })
  @Optional()
  @IsString()
  @Length(1, 64)
  agentId?: string;
}

/** The multipart form as the document shows it (the file is read by the upload interceptor, not the DTO). */
export class FromBriefFormDoc {
  @ApiPropertyOptional({ type: 'string', format: 'binary', description: 'The brief: PDF, plain text or Markdown (.pdf, .txt, .md)' }) file?: unknown;
  @ApiPropertyOptional({ maxLength: BRIEF_CHARS_STORED, description: 'The brief as text (with a file: notes appended to its text)' }) briefText?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 64, description: 'Voice agent of the draft (400 agent_not_found when unknown)' }) agentId?: string;
}

export class ProposedExtractionKeyResponse {
  @ApiProperty() name: string;
  @ApiProperty() type: string;
  @ApiProperty() description: string;
}

export class ProposedMetricResponse {
  @ApiProperty() key: string;
  @ApiProperty() label: string;
  @ApiProperty({ type: [String] }) allowedValues: string[];
  @ApiProperty() prompt: string;
}

export class CampaignProposalResponse {
  @ApiProperty() name: string;
  @ApiProperty() goal: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: [String], description: "Steps for the voice agent's prompt (agents own prompts: write them into the agent)" })
  agentPromptOutline: string[];
  @ApiProperty({ type: [ProposedExtractionKeyResponse] }) extractionKeys: ProposedExtractionKeyResponse[];
  @ApiProperty({ type: [ProposedMetricResponse] }) metrics: ProposedMetricResponse[];
}

export class BriefDraftResponse {
  @ApiProperty({ type: CampaignResponse, description: 'The DRAFT campaign created from the brief' }) campaign: CampaignResponse;
  @ApiProperty({ type: CampaignProposalResponse, description: 'What the model proposed' }) proposal: CampaignProposalResponse;
}

// ---- metric prompt suggestions ---------------------------------------------------------------

export class MetricPromptDraftDto {
  @ApiPropertyOptional({ maxLength: 100 }) @Optional() @IsString() @MaxLength(100) name?: string;
  @ApiPropertyOptional({ maxLength: 500 }) @Optional() @IsString() @MaxLength(500) goal?: string;
  @ApiPropertyOptional({ maxLength: 280 }) @Optional() @IsString() @MaxLength(280) description?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 64, description: 'Agent of the campaign being edited (400 agent_not_found when unknown)' })
  @Optional()
  @IsString()
  @Length(1, 64)
  agentId?: string;
}

export class SuggestMetricPromptDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'A saved campaign to write for (404 campaign_not_found when unknown)' })
  @Optional()
  @IsUUID()
  campaignId?: string;

  @ApiProperty({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', example: 'qualified' })
  @IsString()
  @Length(1, 64)
  @Matches(/^[a-zA-Z_][a-zA-Z0-9_]*$/, { message: 'key must start with a letter or _ and hold only letters, digits and _' })
  key: string;

  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Qualified lead' })
  @IsString()
  @Length(1, 100)
  label: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: 20, example: ['yes', 'no', 'unclear'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  allowedValues: string[];

  @ApiPropertyOptional({ type: MetricPromptDraftDto, description: 'The campaign being edited, not saved yet' })
  @Optional()
  @ValidateNested()
  @Type(() => MetricPromptDraftDto)
  draft?: MetricPromptDraftDto;
}

export class MetricPromptResponse {
  @ApiProperty({ maxLength: 5000 }) prompt: string;
}

// ---- campaign chat ---------------------------------------------------------------------------

export class ChatMessageDto {
  @ApiProperty({ maxLength: MAX_CHAT_MESSAGE_CHARS, example: 'How many leads were reached?', description: 'Blank: 400 empty_message' })
  @IsString()
  @MaxLength(MAX_CHAT_MESSAGE_CHARS)
  message: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 64, description: 'Continue this session (404 session_not_found); a new session without it' })
  @Optional()
  @IsString()
  @Length(1, 64)
  sessionId?: string;
}

export class ChatMessageResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer' }) seq: number;
  @ApiProperty({ enum: ['user', 'assistant'] }) role: string;
  @ApiProperty() content: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class ChatReplyResponse {
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ type: ChatMessageResponse, description: "The assistant's answer" }) reply: ChatMessageResponse;
  @ApiProperty({ type: 'integer', description: 'User messages the session may still take (fair-use cap)' }) messagesLeft: number;
}

export class ChatSessionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiProperty({ type: 'integer' }) userMessageCount: number;
  @ApiProperty({ type: 'integer' }) messageLimit: number;
  @ApiProperty({ type: [ChatMessageResponse] }) messages: ChatMessageResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

// ---- speech calls ----------------------------------------------------------------------------

export class ListSpeechCallsQuery extends OffsetPageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only this campaign’s calls' })
  @Optional()
  @IsUUID()
  campaignId?: string;
}

export class TranslateTranscriptDto {
  @ApiProperty({ minLength: 2, maxLength: 35, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', example: 'fr', description: 'BCP 47 language tag' })
  @IsString()
  @Length(2, 35)
  @Matches(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'language must be a BCP 47 tag such as fr or pt-BR' })
  language: string;
}

export class SpeechTranslationResponse {
  @ApiProperty({ example: 'fr' }) language: string;
  @ApiProperty() text: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class TranslationResponse extends SpeechTranslationResponse {
  @ApiProperty({ format: 'uuid' }) callId: string;
}

export class SpeechCallResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) campaignId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) agentId: string | null;
  @ApiProperty({ enum: CALL_KINDS }) kind: string;
  @ApiProperty() status: string;
  @ApiProperty({ type: String, nullable: true }) outcome: string | null;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) endedAt: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) durationMs: number | null;
  @ApiProperty({ type: String, nullable: true }) transcript: string | null;
  @ApiProperty({ type: String, nullable: true }) recordingUrl: string | null;
  @ApiProperty({ enum: ANALYSIS_STATUSES }) analysisStatus: string;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) extraction: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, nullable: true }) evaluation: Record<string, string> | null;
  @ApiProperty({ type: [SpeechTranslationResponse] }) translations: SpeechTranslationResponse[];
}

export class SpeechCallListResponse {
  @ApiProperty({ type: [SpeechCallResponse] }) items: SpeechCallResponse[];
  @ApiProperty({ type: 'integer', description: 'Calls matching the filter, over all pages' }) total: number;
}
