import { column, defineTable } from '@outreach/platform';
import type { MetricOverride } from '../../application/call-queries';
import type { AnalysisStatus, CallKind, CallProps, CallStatus } from '../../domain/call';

/** A call as stored: the aggregate's properties, and the operator's metric overrides beside them. */
export interface StoredCall extends CallProps {
  /** Written only by the analysis store, one key at a time. */
  metricOverrides: Record<string, MetricOverride>;
}

export const CALLS = defineTable<StoredCall>('calls', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  campaignId: column.nullableUuid('campaign_id'),
  contactId: column.nullableUuid('contact_id'),
  agentId: column.nullableUuid('agent_id'),
  fromNumber: column.nullableText('from_number'),
  toNumber: column.text('to_number'),
  kind: column.text<CallKind>('kind'),
  status: column.text<CallStatus>('status'),
  outcome: column.nullableText('outcome'),
  providerDisposition: column.nullableText('provider_disposition'),
  providerCallId: column.nullableText('provider_call_id'),
  attemptNumber: column.int('attempt_number'),
  startedAt: column.timestamp('started_at'),
  answeredAt: column.nullableTimestamp('answered_at'),
  endedAt: column.nullableTimestamp('ended_at'),
  durationMs: column.nullableInt('duration_ms'),
  transcript: column.nullableText('transcript'),
  recordingUrl: column.nullableText('recording_url'),
  providerAnalysis: column.json<Record<string, unknown> | null>('provider_analysis'),
  extraction: column.json<Record<string, unknown> | null>('extraction'),
  evaluation: column.json<Record<string, unknown> | null>('evaluation'),
  analysisStatus: column.text<AnalysisStatus>('analysis_status'),
  idempotencyKey: column.nullableText('idempotency_key'),
  createdAt: column.timestamp('created_at'),
  metricOverrides: column.mapped(
    column.json<Record<string, MetricOverride> | null>('metric_overrides'),
    (stored) => stored ?? {},
    (value) => value,
  ),
});

/** The aggregate's own columns: what the call repository reads and writes. */
export const CALL_PROPS = CALLS.keys.filter((k): k is keyof CallProps => k !== 'metricOverrides');
