import { column, defineTable } from '@outreach/platform';
import type { AgentProps, PromptSource } from '../../domain/agent.aggregate';
import type { Abilities, AgentStatus, AgentType, ExtractionConfig, FlowGraph, StudioConfig } from '../../domain/agent.types';

/** `agents` (migration 1763700001000): one row per agent, the aggregate's props one to one. */
export const AGENTS = defineTable<AgentProps>('agents', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  status: column.text<AgentStatus>('status'),
  agentType: column.text<AgentType>('agent_type'),
  prompt: column.text('prompt'),
  promptSource: column.text<PromptSource>('prompt_source'),
  greeting: column.nullableText('greeting'),
  voice: column.text('voice'),
  preCallVariables: column.nullableTextArray('pre_call_variables'),
  extractionConfig: column.json<ExtractionConfig | null>('extraction_config'),
  enableRecording: column.bool('enable_recording'),
  endCallEnabled: column.bool('end_call_enabled'),
  endCallMessage: column.nullableText('end_call_message'),
  endCallTriggers: column.nullableTextArray('end_call_triggers'),
  maxCallDurationSecs: column.int('max_call_duration_secs'),
  backgroundAudioId: column.nullableText('background_audio_id'),
  backgroundAudioVolume: column.nullableDouble('background_audio_volume'),
  voicemailDetectionEnabled: column.bool('voicemail_detection_enabled'),
  voicemailMessage: column.nullableText('voicemail_message'),
  screenerHandlingEnabled: column.bool('screener_handling_enabled'),
  transferEnabled: column.bool('transfer_enabled'),
  transferNumber: column.nullableText('transfer_number'),
  transferMessage: column.nullableText('transfer_message'),
  transferTriggers: column.nullableTextArray('transfer_triggers'),
  studioConfig: column.json<StudioConfig | null>('studio_config'),
  abilities: column.json<Abilities | null>('abilities'),
  flowGraph: column.json<FlowGraph | null>('flow_graph'),
  providerAgentId: column.nullableText('provider_agent_id'),
  provisionedAt: column.nullableTimestamp('provisioned_at'),
  archivedAt: column.nullableTimestamp('archived_at'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});

/** The unique index on (workspace_id, lower(name)): a violation means name_taken. */
export const AGENTS_NAME_INDEX = 'agents_workspace_name_key';
