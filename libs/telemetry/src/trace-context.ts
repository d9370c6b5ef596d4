import { context, isSpanContextValid, propagation, trace } from '@opentelemetry/api';

/**
 * The member of an outbox row's payload that carries the trace context of the transaction that
 * wrote it (W3C `traceparent`, `tracestate`). The outbox relay takes it out of the payload and hands
 * it to BullMQ as the job's telemetry metadata, so handlers never see it.
 */
export const TRACE_CONTEXT_KEY = '_trace';

export type TraceCarrier = Record<string, string>;

/**
 * The active trace context as W3C headers, or null when there is none (tracing off, or no span
 * active): then nothing is stored and nothing is sent.
 */
export function activeTraceCarrier(): TraceCarrier | null {
  if (!trace.getActiveSpan()) return null;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : null;
}

/** `payload` with the active trace context added (unchanged when there is none). */
export function withTraceContext<T extends Record<string, unknown>>(payload: T): T {
  const carrier = activeTraceCarrier();
  return carrier ? { ...payload, [TRACE_CONTEXT_KEY]: carrier } : payload;
}

/**
 * Splits what an outbox row stored into the job's data and its BullMQ telemetry metadata (the JSON
 * of the carrier, the format bullmq-otel's context manager reads), or no metadata when the row has
 * no usable trace context.
 */
export function takeTraceContext(payload: unknown): { data: unknown; telemetryMetadata: string | null } {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload) || !(TRACE_CONTEXT_KEY in payload)) {
    return { data: payload, telemetryMetadata: null };
  }
  const { [TRACE_CONTEXT_KEY]: carrier, ...data } = payload as Record<string, unknown>;
  const usable =
    carrier !== null &&
    typeof carrier === 'object' &&
    typeof (carrier as Record<string, unknown>).traceparent === 'string' &&
    Object.values(carrier).every((v) => typeof v === 'string');
  return { data, telemetryMetadata: usable ? JSON.stringify(carrier) : null };
}

/** `traceId` and `spanId` of the active span for a log line; nothing when no span is active. */
export function activeTraceFields(): { traceId?: string; spanId?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const ctx = span.spanContext();
  return isSpanContextValid(ctx) ? { traceId: ctx.traceId, spanId: ctx.spanId } : {};
}
