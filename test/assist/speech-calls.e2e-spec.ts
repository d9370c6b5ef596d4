import { Llm, SANDBOX_LLM_MARKERS } from '@outreach/assist';
import { AnalysisInput, AnalysisProviderError, AnalysisResult, CallAnalyser, SandboxCallAnalyser } from '@outreach/calls';
import { RecordingLlm } from '../../libs/assist/src/testing';
import { recordCall } from '../calls/call-fixtures';
import { createCampaign, expectError } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';

/*
 * Speech calls: the speech-analysis view of the workspace's calls (GET /speech/calls, offset
 * pages; GET /speech/calls/{id}), transcript translation through the language model (kept per
 * language) and analysis through the calls module's analyser.
 */
class SwitchableAnalyser extends CallAnalyser {
  current: CallAnalyser = new SandboxCallAnalyser();
  analyse(input: AnalysisInput): Promise<AnalysisResult> {
    return this.current.analyse(input);
  }
}

class FailingAnalyser extends CallAnalyser {
  async analyse(): Promise<AnalysisResult> {
    throw new AnalysisProviderError('upstream_status', 'the analysis provider answered 503', 503);
  }
}

describe('speech calls', () => {
  const llm = new RecordingLlm();
  const analyser = new SwitchableAnalyser();
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Llm).useValue(llm).overrideProvider(CallAnalyser).useValue(analyser) });
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    llm.seen.length = 0;
    analyser.current = new SandboxCallAnalyser();
    ws = await t.seed();
  });

  const get = (path: string, key = ws.key) => t.http.get(path).set(bearer(key));
  const post = (path: string, body: Record<string, unknown> = {}, key = ws.key) => t.http.post(path).set(bearer(key)).send(body);
  const completedCall = (campaignId?: string) => recordCall(t, { workspaceId: ws.workspaceId, campaignId, to: '+14155550107' });
  const translationRows = async () => Number((await t.dataSource.query(`SELECT count(*) AS n FROM speech_translations`))[0].n);

  it('lists the workspace calls newest first with offset/limit and total (filter campaignId); one call by id', async () => {
    const campaign = await createCampaign(t, ws.key);
    const ids = [await completedCall(campaign.id), await completedCall(), await completedCall(campaign.id)];
    const other = await t.seed();
    await recordCall(t, { workspaceId: other.workspaceId, to: '+14155550108' });

    const page1 = await get('/speech/calls?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.total).toBe(3);
    expect(page1.body.items.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    const page2 = await get('/speech/calls?limit=2&offset=2');
    expect(page2.body.items.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    const ofCampaign = await get(`/speech/calls?campaignId=${campaign.id}`);
    expect(ofCampaign.body).toMatchObject({ total: 2 });

    const one = await get(`/speech/calls/${ids[1]}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: ids[1], kind: 'test', status: 'ENDED', outcome: 'completed', translations: [] });
    expect(one.body.transcript).toEqual(expect.any(String));

    expectError(await get('/speech/calls/3f2b8a52-3f1d-4c55-9d1c-1e8a4d1f2b3c'), 404, 'call_not_found');
    expectError(await get('/speech/calls/not-an-id'), 404, 'call_not_found');
    expectError(await get(`/speech/calls/${ids[1]}`, other.key), 404, 'call_not_found');
    expectError(await get('/speech/calls?limit=500'), 400, 'invalid_query');
  });

  it('translates the transcript through the model once per language; 400 no_transcript, 502 provider_error, 404 call_not_found', async () => {
    const id = await completedCall();
    const transcript = (await get(`/speech/calls/${id}`)).body.transcript as string;

    const fr = await post(`/speech/calls/${id}/translate`, { language: 'fr' });
    expect(fr.status).toBe(200);
    expect(fr.body).toMatchObject({ callId: id, language: 'fr', text: `[fr] ${transcript}` });
    const told = llm.last('translation')!;
    expect(told.messages[0].content).toContain('Target language: fr');
    expect(told.messages[1].content).toBe(transcript);

    // Asked again: the stored translation, without the model.
    const asked = llm.seen.length;
    expect((await post(`/speech/calls/${id}/translate`, { language: 'fr' })).body).toEqual(fr.body);
    expect(llm.seen).toHaveLength(asked);
    expect((await post(`/speech/calls/${id}/translate`, { language: 'pt-br' })).body.language).toBe('pt-BR');
    expect((await get(`/speech/calls/${id}`)).body.translations.map((x: { language: string }) => x.language)).toEqual(['fr', 'pt-BR']);

    const unfinished = await recordCall(t, { workspaceId: ws.workspaceId, to: '+14155550109', unfinished: true });
    expectError(await post(`/speech/calls/${unfinished}/translate`, { language: 'fr' }), 400, 'no_transcript');
    const unanswered = await recordCall(t, { workspaceId: ws.workspaceId, to: '+14155550100' });
    expectError(await post(`/speech/calls/${unanswered}/translate`, { language: 'fr' }), 400, 'no_transcript');

    const failing = await completedCall();
    await t.dataSource.query(`UPDATE calls SET transcript = transcript || $2 WHERE id = $1`, [failing, ` ${SANDBOX_LLM_MARKERS.fail}`]);
    const failed = await post(`/speech/calls/${failing}/translate`, { language: 'de' });
    expectError(failed, 502, 'provider_error');
    expect(failed.body.upstreamStatus).toBe(500);

    expectError(await post('/speech/calls/3f2b8a52-3f1d-4c55-9d1c-1e8a4d1f2b3c/translate', { language: 'fr' }), 404, 'call_not_found');
    expectError(await post(`/speech/calls/${id}/translate`, { language: 'not a language' }), 400, 'invalid_body');
    expect(await translationRows()).toBe(2);
  });

  it("analyses through the calls module's analyser: 200 DONE, 400 no_extraction_data, 502 analysis_failed, 404 call_not_found", async () => {
    const campaign = await createCampaign(t, ws.key, {
      customExtractionKeys: [{ name: 'budget', type: 'number', description: 'Budget in dollars' }],
      evaluationMetrics: [{ key: 'qualified', label: 'Qualified', allowedValues: ['yes', 'no'], prompt: 'Is the lead qualified?' }],
    });
    const id = await completedCall(campaign.id);
    const analysed = await post(`/speech/calls/${id}/analyse`);
    expect(analysed.status).toBe(200);
    expect(analysed.body).toMatchObject({ id, analysisStatus: 'DONE', extraction: { budget: expect.any(Number) } });
    expect(['yes', 'no']).toContain(analysed.body.evaluation.qualified);

    // A test call of an agent without extraction keys has nothing to analyse.
    const nothing = await completedCall();
    expectError(await post(`/speech/calls/${nothing}/analyse`), 400, 'no_extraction_data');
    const unfinished = await recordCall(t, { workspaceId: ws.workspaceId, campaignId: campaign.id, to: '+14155550109', unfinished: true });
    expectError(await post(`/speech/calls/${unfinished}/analyse`), 400, 'no_extraction_data');

    analyser.current = new FailingAnalyser();
    const failing = await completedCall(campaign.id);
    const failed = await post(`/speech/calls/${failing}/analyse`);
    expectError(failed, 502, 'analysis_failed');
    expect(failed.body.upstreamStatus).toBe(503);
    expectError(await post('/speech/calls/3f2b8a52-3f1d-4c55-9d1c-1e8a4d1f2b3c/analyse'), 404, 'call_not_found');
  });

  it('scopes: calls.view to read, calls.edit to translate and analyse', async () => {
    const id = await completedCall();
    const viewer = await t.addKey(ws.workspaceId, { scopes: ['calls.view'] });
    expect((await get(`/speech/calls/${id}`, viewer.key)).status).toBe(200);
    const refused = await post(`/speech/calls/${id}/translate`, { language: 'fr' }, viewer.key);
    expectError(refused, 403, 'forbidden');
    expect(refused.body.requiredPermission).toBe('calls.edit');
    const campaignsOnly = await t.addKey(ws.workspaceId, { scopes: ['campaigns.edit'] });
    const list = await get('/speech/calls', campaignsOnly.key);
    expectError(list, 403, 'forbidden');
    expect(list.body.requiredPermission).toBe('calls.view');
  });
});
