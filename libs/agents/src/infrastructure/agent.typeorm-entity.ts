import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Abilities, ExtractionConfig, FlowGraph, StudioConfig } from '../domain/agent.types';

@Entity({ name: 'agents' })
export class AgentEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'workspace_id', type: 'uuid' }) workspaceId: string;
  @Column('text') name: string;
  @Column('text') status: string;
  @Column({ name: 'agent_type', type: 'text' }) agentType: string;
  @Column('text') prompt: string;
  @Column({ name: 'prompt_source', type: 'text' }) promptSource: string;
  @Column({ type: 'text', nullable: true }) greeting: string | null;
  @Column('text') voice: string;
  @Column({ name: 'pre_call_variables', type: 'text', array: true, nullable: true }) preCallVariables: string[] | null;
  @Column({ name: 'extraction_config', type: 'jsonb', nullable: true }) extractionConfig: ExtractionConfig | null;
  @Column({ name: 'enable_recording', type: 'boolean' }) enableRecording: boolean;
  @Column({ name: 'end_call_enabled', type: 'boolean' }) endCallEnabled: boolean;
  @Column({ name: 'end_call_message', type: 'text', nullable: true }) endCallMessage: string | null;
  @Column({ name: 'end_call_triggers', type: 'text', array: true, nullable: true }) endCallTriggers: string[] | null;
  @Column({ name: 'max_call_duration_secs', type: 'integer' }) maxCallDurationSecs: number;
  @Column({ name: 'background_audio_id', type: 'text', nullable: true }) backgroundAudioId: string | null;
  @Column({ name: 'background_audio_volume', type: 'double precision', nullable: true }) backgroundAudioVolume: number | null;
  @Column({ name: 'voicemail_detection_enabled', type: 'boolean' }) voicemailDetectionEnabled: boolean;
  @Column({ name: 'voicemail_message', type: 'text', nullable: true }) voicemailMessage: string | null;
  @Column({ name: 'screener_handling_enabled', type: 'boolean' }) screenerHandlingEnabled: boolean;
  @Column({ name: 'transfer_enabled', type: 'boolean' }) transferEnabled: boolean;
  @Column({ name: 'transfer_number', type: 'text', nullable: true }) transferNumber: string | null;
  @Column({ name: 'transfer_message', type: 'text', nullable: true }) transferMessage: string | null;
  @Column({ name: 'transfer_triggers', type: 'text', array: true, nullable: true }) transferTriggers: string[] | null;
  @Column({ name: 'studio_config', type: 'jsonb', nullable: true }) studioConfig: StudioConfig | null;
  @Column({ type: 'jsonb', nullable: true }) abilities: Abilities | null;
  @Column({ name: 'flow_graph', type: 'jsonb', nullable: true }) flowGraph: FlowGraph | null;
  @Column({ name: 'provider_agent_id', type: 'text', nullable: true }) providerAgentId: string | null;
  @Column({ name: 'provisioned_at', type: 'timestamptz', nullable: true }) provisionedAt: Date | null;
  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true }) archivedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
