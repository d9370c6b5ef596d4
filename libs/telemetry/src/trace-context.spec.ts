import { context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { activeTraceCarrier, activeTraceFields, takeTraceContext, TRACE_CONTEXT_KEY, withTraceContext } from './trace-context';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const SPAN_ID = 'b7ad6b7169203331';

/** Runs `fn` with a (non-recording) span of known ids active, as a request or job would. */
function inSpan<T>(fn: () => T): T {
  const span = trace.wrapSpanContext({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED });
  return context.with(trace.setSpan(context.active(), span), fn);
}

describe('trace context through the outbox', () => {
  beforeAll(() => {
    // What the SDK registers when tracing is on; AsyncLocalStorage is not needed for synchronous code.
    const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(() => {
    context.disable();
    propagation.disable();
  });

  it('adds nothing when no span is active (tracing off)', () => {
    expect(activeTraceCarrier()).toBeNull();
    expect(withTraceContext({ campaignId: 'c1' })).toEqual({ campaignId: 'c1' });
    expect(activeTraceFields()).toEqual({});
  });

  it('stores the active span as W3C traceparent in the payload', () => {
    const payload = inSpan(() => withTraceContext({ campaignId: 'c1' }));
    expect(payload).toEqual({ campaignId: 'c1', [TRACE_CONTEXT_KEY]: { traceparent: `00-${TRACE_ID}-${SPAN_ID}-01` } });
    expect(inSpan(() => activeTraceFields())).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID });
  });

  it('the relay takes it out of the job data and into BullMQ telemetry metadata', () => {
    const stored = { campaignId: 'c1', [TRACE_CONTEXT_KEY]: { traceparent: `00-${TRACE_ID}-${SPAN_ID}-01` } };
    expect(takeTraceContext(stored)).toEqual({
      data: { campaignId: 'c1' },
      telemetryMetadata: JSON.stringify({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-01` }),
    });
  });

  it('leaves payloads without one alone, and drops a malformed one without failing the job', () => {
    expect(takeTraceContext({ campaignId: 'c1' })).toEqual({ data: { campaignId: 'c1' }, telemetryMetadata: null });
    expect(takeTraceContext({ campaignId: 'c1', [TRACE_CONTEXT_KEY]: 'nonsense' })).toEqual({
      data: { campaignId: 'c1' },
      telemetryMetadata: null,
    });
    expect(takeTraceContext(null)).toEqual({ data: null, telemetryMetadata: null });
  });
});
