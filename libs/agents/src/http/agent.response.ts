import { ApiProperty } from '@nestjs/swagger';
import { AGENT_STATUSES, AGENT_TYPES, END_CALL_TRIGGERS, TRANSFER_TRIGGERS } from '../domain/agent.types';
import { SYSTEM_VARIABLES } from '../domain/template-variables';
import { AbilitiesDto, ExtractionConfigDto, FlowGraphDto, StudioConfigDto } from './agent-body.dto';

/** The agent response (spec "Agent response" plus every stored field). */
export class AgentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() prompt: string;
  @ApiProperty({ enum: ['custom', 'studio'], description: 'studio: assembled from studioConfig (and re-assembled when it changes)' })
  promptSource: string;
  @ApiProperty({ nullable: true, type: String }) greeting: string | null;
  @ApiProperty() voice: string;
  @ApiProperty({ enum: AGENT_STATUSES, description: 'PROVISIONING until the voice provider has set the agent up' }) status: string;
  @ApiProperty({ nullable: true, type: [String] }) preCallVariables: string[] | null;
  @ApiProperty({ type: [String], description: 'The {{name}} placeholders used by prompt, greeting, messages and welcome message' })
  variables: string[];
  @ApiProperty({ type: [String], description: `Built-ins the service fills at call time: ${SYSTEM_VARIABLES.join(', ')}` })
  systemVariables: string[];
  @ApiProperty({ nullable: true, type: () => ExtractionConfigDto }) extractionConfig: ExtractionConfigDto | null;
  @ApiProperty({ enum: AGENT_TYPES }) agentType: string;
  @ApiProperty() enableRecording: boolean;
  @ApiProperty() endCallEnabled: boolean;
  @ApiProperty({ nullable: true, type: String }) endCallMessage: string | null;
  @ApiProperty({ nullable: true, isArray: true, enum: END_CALL_TRIGGERS }) endCallTriggers: string[] | null;
  @ApiProperty({ type: 'integer' }) maxCallDurationSecs: number;
  @ApiProperty({ nullable: true, type: String }) backgroundAudioId: string | null;
  @ApiProperty({ nullable: true, type: Number }) backgroundAudioVolume: number | null;
  @ApiProperty() voicemailDetectionEnabled: boolean;
  @ApiProperty({ nullable: true, type: String }) voicemailMessage: string | null;
  @ApiProperty() screenerHandlingEnabled: boolean;
  @ApiProperty() transferEnabled: boolean;
  @ApiProperty({ nullable: true, type: String }) transferNumber: string | null;
  @ApiProperty({ nullable: true, type: String }) transferMessage: string | null;
  @ApiProperty({ nullable: true, isArray: true, enum: TRANSFER_TRIGGERS }) transferTriggers: string[] | null;
  @ApiProperty({ nullable: true, type: () => StudioConfigDto }) studioConfig: StudioConfigDto | null;
  @ApiProperty({ nullable: true, type: () => AbilitiesDto }) abilities: AbilitiesDto | null;
  @ApiProperty({ nullable: true, type: () => FlowGraphDto }) flowGraph: FlowGraphDto | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) provisionedAt: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) archivedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class VoiceResponse {
  @ApiProperty({ example: 'aria' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['female', 'male', 'neutral'] }) gender: string;
  @ApiProperty({ example: 'en-US' }) language: string;
  @ApiProperty() accent: string;
  @ApiProperty() provider: string;
  @ApiProperty({ description: 'Whether GET /voices/{id}/preview has a sample' }) previewAvailable: boolean;
}

export class BackgroundAudioResponse {
  @ApiProperty({ example: 'office' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ minimum: 0, maximum: 1 }) defaultVolume: number;
}
