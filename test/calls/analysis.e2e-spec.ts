import { Module } from '@nestjs/common';
import {
  AnalyseCall,
  AnalysisInput,
  AnalysisResult,
  analyseCallJob,
  CallAnalyser,
  CallsAnalysisWorkerModule,
  OpenAiCallAnalyser,
  SandboxCallAnalyser,
} from '@outreach/calls';
import { AppError, Outbox, PlatformModule, TransactionHost, WORKER_CONFIG_DEFAULTS } from '@outreach/platform';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { serviceMigrations } from '../support/service-modules';
import { createCampaign, credit, expectError } from '../campaigns/campaign-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { recordCall } from './call-fixtures';
import { answerWith, failWith, StubChatServer } from './stub-chat-server';

/*
 * Call analysis end to end: a finished call's `calls/analyse` job goes through the outbox, the
 * worker's relay and BullMQ to the calls processor, which stores extraction + evaluation. The
 * analyser is switchable per test: the deterministic sandbox, or the OpenAI-compatible adapter
 * against a stub server on 127.0.0.1.
 */

/** The CallAnalyser both apps use: delegates to whatever the test installs. */
class SwitchableAnalyser extends CallAnalyser {
  current: CallAnalyser = new SandboxCallAnalyser();
  analyse(input: AnalysisInput): Promise<AnalysisResult> {
    return this.current.analyse(input);
  }
}

@Module({
  imports: [
    PlatformModule.forRoot({ role: 'worker', migrations: serviceMigrations(), configDefaults: WORKER_CONFIG_DEFAULTS }),
    CallsAnalysisWorkerModule,
  ],
})
class CallsWorkerRoot {}

const METRICS = [
  { key: 'qualified', label: 'Qualified', allowedValues: ['yes', 'no', 'unclear'], prompt: 'Is the lead qualified?' },
  { key: 'tone', label: 'Tone', allowedValues: ['warm', 'cold'], prompt: 'Caller tone' },
];
const KEYS = [
  { name: 'budget', type: 'number', description: 'Budget in dollars' },
  { name: 'visit_date', type: 'date', description: 'Preferred visit date' },
  { name: 'wants_callback', type: 'boolean', description: 'Asked to be called back' },
];

describe('call analysis (calls/analyse through the outbox and the worker)', () => {
  const analyser = new SwitchableAnalyser();
  const stub = new StubChatServer();
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    await stub.start();
    t = await TestApp.create({ configure: (b) => b.overrideProvider(CallAnalyser).useValue(analyser) });
    worker = await WorkerApp.create({ root: CallsWorkerRoot, configure: (b) => b.overrideProvider(CallAnalyser).useValue(analyser) });
  }, 30_000);
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await stub.stop();
  });
  beforeEach(async () => {
    await t.reset();
    await worker.producer.queue('calls').obliterate({ force: true });
    stub.seen.length = 0;
    analyser.current = new SandboxCallAnalyser();
    ws = await t.seed();
  });

  const useStub = () => {
    analyser.current = new OpenAiCallAnalyser({ baseUrl: stub.baseUrl, apiKey: 'sk-stub', model: 'stub-model', timeoutMs: 2000 });
  };
  const readCall = async (id: string) => (await t.http.get(`/calls/${id}`).set(bearer(ws.key))).body;
  const settled = (id: string, statuses = ['DONE', 'SKIPPED']) =>
    waitFor(`call ${id} analysed`, async () => {
      const call = await readCall(id);
      return statuses.includes(call.analysisStatus) ? call : null;
    });
  const campaignWithKeys = () => createCampaign(t, ws.key, { customExtractionKeys: KEYS, customExtractionKeysMode: 'REPLACE', evaluationMetrics: METRICS });

  it("extracts the campaign's effective keys and evaluates its metrics (sandbox: deterministic by type), once", async () => {
    const campaign = await campaignWithKeys();
    const id = await recordCall(t, { workspaceId: ws.workspaceId, campaignId: campaign.id, to: '+14155550105', enqueueAnalysis: true });

    const call = await settled(id);
    expect(call.analysisStatus).toBe('DONE');
    expect(typeof call.extraction.budget).toBe('number');
    expect(call.extraction.visit_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(typeof call.extraction.wants_callback).toBe('boolean');
    expect(Object.keys(call.extraction).sort()).toEqual(['budget', 'visit_date', 'wants_callback']);
    expect(['yes', 'no', 'unclear']).toContain(call.evaluation.qualified);
    expect(['warm', 'cold']).toContain(call.evaluation.tone);
    // Exactly what the sandbox says for this transcript.
    const expected = await new SandboxCallAnalyser().analyse({ transcript: call.transcript, extractionKeys: KEYS, metrics: METRICS });
    expect({ extraction: call.extraction, evaluation: call.evaluation }).toEqual(expected);

    // The job's id is analyse-<callId>: added again while the first is kept as completed, nothing runs.
    useStub();
    stub.handler = answerWith({ extraction: { budget: 1 }, evaluation: { qualified: 'no' } });
    const calls = worker.producer.queue('calls');
    const first = await calls.getJob(`analyse-${id}`);
    expect(first?.finishedOn).toBeDefined();
    await t.get(TransactionHost).run(() => t.get(Outbox).enqueue(analyseCallJob(id)));
    await waitFor('the outbox to relay the re-add', async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE dispatched_at IS NULL`))[0].n === 0);
    expect((await calls.getJob(`analyse-${id}`))?.finishedOn).toBe(first!.finishedOn);
    // The same job run again all the same (its completed record gone: a flush) changes nothing, and asks no provider.
    await first!.remove();
    await t.get(TransactionHost).run(() => t.get(Outbox).enqueue(analyseCallJob(id)));
    await waitFor('duplicate job processed', async () => (await calls.getJob(`analyse-${id}`))?.finishedOn);
    expect(stub.seen).toHaveLength(0);
    expect(await readCall(id)).toEqual(call);
  });

  it('a test call (no campaign) extracts its agent\'s keys, evaluates nothing; placed over HTTP, analysed by the worker', async () => {
    await credit(t, ws.workspaceId);
    const agent = await createActiveAgent(t, ws.key, {
      extractionConfig: { prompt: 'Extract the facts', keys: [{ name: 'budget', type: 'integer', description: 'Budget' }] },
    });
    const from = await t.get(PhoneNumberAdministration).add({ workspaceId: ws.workspaceId, e164: '+14155550150' });
    const placed = await t.http
      .post('/calls/test')
      .set(bearer(ws.key))
      .set('Idempotency-Key', 'analysis-1')
      .send({ agentId: agent.id, toNumber: '+14155550106', fromPhoneNumberId: from.id });
    expect(placed.status).toBe(201);
    expect(placed.body.analysisStatus).toBe('PENDING');

    const call = await settled(placed.body.id);
    expect(call.analysisStatus).toBe('DONE');
    expect(Object.keys(call.extraction)).toEqual(['budget']);
    expect(Number.isInteger(call.extraction.budget)).toBe(true);
    expect(call.evaluation).toEqual({});
  });

  it('OpenAI-compatible adapter: the answer is stored; a transient 500 is retried by the worker until it succeeds', async () => {
    useStub();
    const campaign = await campaignWithKeys();
    let hits = 0;
    stub.handler = (req, res) => {
      hits += 1;
      if (hits === 1) return failWith(500)(req, res);
      return answerWith({ extraction: { budget: 5000, visit_date: '2026-03-03', invented: 'x' }, evaluation: { qualified: 'yes', tone: 'lukewarm' } })(req, res);
    };
    const id = await recordCall(t, { workspaceId: ws.workspaceId, campaignId: campaign.id, to: '+14155550106', enqueueAnalysis: true });

    const call = await settled(id);
    expect(call.analysisStatus).toBe('DONE');
    expect(call.extraction).toEqual({ budget: 5000, visit_date: '2026-03-03' });
    expect(call.evaluation).toEqual({ qualified: 'yes' }); // 'lukewarm' is not an allowed value: dropped
    expect(hits).toBe(2);
    const asked = JSON.parse((stub.seen[1].body.messages as Array<{ content: string }>)[1].content);
    expect(asked.fields.map((f: { name: string }) => f.name)).toEqual(['budget', 'visit_date', 'wants_callback']);
    expect(asked.metrics.map((m: { key: string }) => m.key)).toEqual(['qualified', 'tone']);
  });

  it('a provider answer that is not the JSON asked for → FAILED, not retried (the job completes)', async () => {
    useStub();
    const campaign = await campaignWithKeys();
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'I think the budget is 5000.' } }] }));
    };
    const id = await t.get(TransactionHost).run(async () => recordCall(t, { workspaceId: ws.workspaceId, campaignId: campaign.id, to: '+14155550106' }));
    await t.get(TransactionHost).run(() => t.get(Outbox).enqueue(analyseCallJob(id)));

    const job = await waitFor('analysis job finished', async () => {
      const j = await worker.producer.queue('calls').getJob(`analyse-${id}`);
      return j?.finishedOn ? j : null;
    });
    expect(job!.returnvalue).toBe('failed');
    expect(job!.attemptsMade).toBe(1);
    expect(stub.seen).toHaveLength(1);
    const call = await readCall(id);
    expect({ analysisStatus: call.analysisStatus, extraction: call.extraction, evaluation: call.evaluation }).toEqual({
      analysisStatus: 'FAILED',
      extraction: null,
      evaluation: null,
    });
  });

  describe('AnalyseCall used synchronously', () => {
    const analyse = (workspaceId: string, callId: string) =>
      t.get(AnalyseCall).execute(workspaceId, callId).then(
        (call) => ({ call, error: null as AppError | null }),
        (error: AppError) => ({ call: null, error }),
      );

    it('provider failure → 502 analysis_failed (upstreamStatus), stored FAILED; a later run may succeed', async () => {
      useStub();
      const campaign = await campaignWithKeys();
      const id = await recordCall(t, { workspaceId: ws.workspaceId, campaignId: campaign.id, to: '+14155550107' });
      stub.handler = failWith(503);
      const failed = await analyse(ws.workspaceId, id);
      expect(failed.error).toBeInstanceOf(AppError);
      expect({ code: failed.error!.code, status: failed.error!.status, upstreamStatus: failed.error!.options.upstreamStatus }).toEqual({
        code: 'analysis_failed',
        status: 502,
        upstreamStatus: 503,
      });
      expect((await readCall(id)).analysisStatus).toBe('FAILED');

      stub.handler = answerWith({ extraction: { budget: 12 }, evaluation: { tone: 'cold' } });
      const retried = await analyse(ws.workspaceId, id);
      expect(retried.call).toMatchObject({ analysisStatus: 'DONE', extraction: { budget: 12 }, evaluation: { tone: 'cold' } });
      // DONE is final: running again asks nobody and changes nothing.
      const hits = stub.seen.length;
      expect((await analyse(ws.workspaceId, id)).call).toEqual(retried.call);
      expect(stub.seen).toHaveLength(hits);
    });

    it('no transcript → 400 no_extraction_data (SKIPPED); nothing requested → 400 no_extraction_data; another workspace → 404 call_not_found', async () => {
      const campaign = await campaignWithKeys();
      const unanswered = await recordCall(t, { workspaceId: ws.workspaceId, campaignId: campaign.id, to: '+14155550100' });
      const noTranscript = await analyse(ws.workspaceId, unanswered);
      expect({ code: noTranscript.error?.code, status: noTranscript.error?.status }).toEqual({ code: 'no_extraction_data', status: 400 });
      expect((await readCall(unanswered)).analysisStatus).toBe('SKIPPED');

      const bare = await createCampaign(t, ws.key);
      const nothing = await recordCall(t, { workspaceId: ws.workspaceId, campaignId: bare.id, to: '+14155550105' });
      const none = await analyse(ws.workspaceId, nothing);
      expect({ code: none.error?.code, status: none.error?.status }).toEqual({ code: 'no_extraction_data', status: 400 });
      expect((await readCall(nothing)).analysisStatus).toBe('SKIPPED');

      const other = await t.seed();
      const foreign = await analyse(other.workspaceId, nothing);
      expect({ code: foreign.error?.code, status: foreign.error?.status }).toEqual({ code: 'call_not_found', status: 404 });
    });

    it('the worker skips a call without a transcript and one whose campaign requests nothing (SKIPPED)', async () => {
      const bare = await createCampaign(t, ws.key);
      const id = await recordCall(t, { workspaceId: ws.workspaceId, campaignId: bare.id, to: '+14155550105', enqueueAnalysis: true });
      expect((await settled(id)).analysisStatus).toBe('SKIPPED');
      expectError(await t.http.get(`/calls/${id}`).set(bearer((await t.seed()).key)), 404, 'call_not_found');
    });
  });
});
