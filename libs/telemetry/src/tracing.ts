/* eslint-disable @typescript-eslint/no-require-imports -- the SDK is loaded only when tracing is on (no cost when off) */
import type { Context, SpanKind as SpanKindType } from '@opentelemetry/api';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { Sampler, SamplingResult, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Telemetry } from 'bullmq';

type Env = Record<string, string | undefined>;

export interface TracingOptions {
  /** `service.name` of the spans, unless OTEL_SERVICE_NAME says otherwise. */
  serviceName: string;
  env?: Env;
  /**
   * Span processors to use instead of the OTLP exporter; tracing then starts whatever the
   * environment says (tests pass a SimpleSpanProcessor over an InMemorySpanExporter).
   */
  spanProcessors?: SpanProcessor[];
}

export interface Tracing {
  /** The instrumentations the SDK enabled (http, express, pg, ioredis). */
  readonly instrumentations: InstrumentationBase[];
  /** Flushes and stops the SDK. */
  shutdown(): Promise<void>;
}

let started: Tracing | null = null;
/** One BullMQ telemetry object for every queue and worker of the process. */
let bullmq: Telemetry | undefined;

/** Whether this process exports traces (so BullMQ queues and workers get their telemetry). */
export function tracingEnabled(): boolean {
  return started !== null;
}

/** Tracing is on when an OTLP endpoint is configured and the SDK is not disabled. */
export function tracingWanted(env: Env): boolean {
  const endpoint = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? '').trim();
  return endpoint !== '' && (env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() !== 'true';
}

/**
 * Starts the OpenTelemetry SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set (OTLP over HTTP/protobuf,
 * batched) and returns null, having loaded nothing, otherwise. Call it before anything
 * instrumented (http, express, pg, ioredis) is required: apps' main.ts import their
 * `instrument.ts` first. BullMQ is traced by its own telemetry hooks (bullmqTelemetry()).
 *
 * What is traced: HTTP requests (not /health, /metrics), Express routing, and the pg and ioredis
 * calls made inside a request or a job. Root spans of BullMQ's internal housekeeping (polling for
 * the next job, stalled checks) are not sampled, nor are database calls outside any operation (the
 * relay's polling), so an idle worker exports nothing.
 */
export function startTracing(options: TracingOptions): Tracing | null {
  const env = options.env ?? process.env;
  if (started) return started;
  if (!options.spanProcessors && !tracingWanted(env)) return null;

  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { BatchSpanProcessor, ParentBasedSampler, SamplingDecision } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { SpanKind } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } = require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');

  /** Drops root spans of internal work (BullMQ's polling and housekeeping); keeps requests and jobs. */
  class OperationRootSampler implements Sampler {
    shouldSample(_ctx: Context, _traceId: string, _name: string, kind: SpanKindType): SamplingResult {
      return { decision: kind === SpanKind.INTERNAL ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED };
    }
    toString(): string {
      return 'OperationRootSampler';
    }
  }

  const untraced = (url: string | undefined) => /^\/(health|metrics)(\/|\?|$)/.test(url ?? '');
  const instrumentations: InstrumentationBase[] = [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => untraced(req.url),
      requireParentforOutgoingSpans: true,
    }),
    new ExpressInstrumentation(),
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
  let spanProcessors = options.spanProcessors;
  if (!spanProcessors) {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
    spanProcessors = [new BatchSpanProcessor(new OTLPTraceExporter())];
  }
  const sdk: NodeSDK = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || options.serviceName,
    spanProcessors,
    sampler: new ParentBasedSampler({ root: new OperationRootSampler() }),
    instrumentations,
  });
  sdk.start();
  let stopping: Promise<void> | null = null;
  started = {
    instrumentations,
    shutdown: () => (stopping ??= sdk.shutdown().catch(() => undefined)),
  };
  return started;
}

/** Flushes and stops tracing, if it was started (a no-op otherwise). */
export async function stopTracing(): Promise<void> {
  const tracing = started;
  if (!tracing) return;
  await tracing.shutdown();
  started = null;
  bullmq = undefined;
}

/**
 * BullMQ's telemetry option (bullmq-otel) when tracing is on, undefined otherwise: queues then
 * record a producer span per add and put the active context in the job; workers run each job in a
 * consumer span that continues that context.
 */
export function bullmqTelemetry(): Telemetry | undefined {
  if (!started) return undefined;
  if (!bullmq) {
    const { BullMQOtel } = require('bullmq-otel') as typeof import('bullmq-otel');
    bullmq = new BullMQOtel({ tracerName: 'bullmq' });
  }
  return bullmq;
}
