// Tracing from a request into the worker: a lead push's trace holds the HTTP request, its database
// calls, and the BullMQ jobs it caused (through the outbox), each job span a child of the span
// that wrote its outbox row. The spans are collected in memory (test/support/tracing.ts).
import { finishedSpans, spanExporter, stopTestTracing } from '../support/tracing';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startWorker, waitFor } from '../engine/engine-harness';
import { pushLead, runningApiCampaign } from '../results/results-helpers';
import { Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const traceOf = (span: ReadableSpan) => span.spanContext().traceId;

describe('tracing: a lead push, from HTTP to the database and into the worker', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
    worker = await startWorker();
    await t.reset();
    ws = await t.seed({ features: ['api_results'] });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await stopTestTracing();
  });

  it('one trace holds the request, its SQL, the dispatch job and the attempt job it started', async () => {
    const campaign = await runningApiCampaign(t, ws.key, ws.workspaceId);
    await new Promise((r) => setTimeout(r, 500)); // the start's own dispatch job runs and finds nothing
    spanExporter.reset();

    const pushed = await pushLead(t, ws.key, campaign.id, { idempotencyKey: 'traced-1', phone: '+14155552676' });
    expect(pushed.status).toBe(201);

    const server = await waitFor(
      'the request span',
      async () => finishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === '/v1/campaigns/:campaignId/leads'),
      Boolean,
    );
    const traceId = traceOf(server!);
    const inTrace = () => finishedSpans().filter((s) => traceOf(s) === traceId);
    const attempt = await waitFor(
      'the attempt job span',
      async () => inTrace().find((s) => s.kind === SpanKind.CONSUMER && s.name === 'process attempts'),
      Boolean,
    );

    const spans = inTrace();
    if (process.env.SHOW_SPANS) console.log(spans.map((s) => `${idOf(s)} <- ${parentOf(s)} ${SpanKind[s.kind]} ${s.name} ${s.instrumentationScope.name}`).join('\n'));
    const byId = new Map(spans.map((s) => [idOf(s), s]));
    // HTTP → Express → database, in the request's trace
    expect(spans.some((s) => s.instrumentationScope.name.includes('express'))).toBe(true);
    const sql = spans.filter((s) => s.instrumentationScope.name.includes('pg'));
    const statement = (s: ReadableSpan) => String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '');
    const outboxInsert = sql.find((s) => /INSERT INTO "?outbox"?/.test(statement(s)) && ancestors(s, byId).includes(idOf(server!)));
    expect(outboxInsert).toBeDefined();
    // the dispatch job continues the request through the outbox row (written with the request's
    // context, moved to BullMQ by the relay outside any request): its span's parent is the span
    // that was active when the row was inserted
    const dispatch = spans.find((s) => s.kind === SpanKind.CONSUMER && s.name === 'process campaigns');
    expect(dispatch).toBeDefined();
    expect(parentOf(dispatch!)).toBe(parentOf(outboxInsert!));
    // the attempt job, enqueued by the dispatch job, descends from the dispatch job
    expect(ancestors(attempt!, byId)).toContain(idOf(dispatch!));
    // and the worker's own database calls belong to the same trace
    expect(sql.some((s) => ancestors(s, byId).includes(idOf(attempt!)))).toBe(true);
  });
});

/** Span ids from `span`'s parent up to the root (as far as the spans collected reach). */
function ancestors(span: ReadableSpan, byId: Map<string, ReadableSpan>): string[] {
  const ids: string[] = [];
  let parent = parentOf(span);
  while (parent) {
    ids.push(parent);
    parent = byId.get(parent) ? parentOf(byId.get(parent)!) : undefined;
  }
  return ids;
}
