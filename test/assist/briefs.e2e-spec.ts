import { Llm, SANDBOX_LLM_MARKERS } from '@outreach/assist';
import { RecordingLlm } from '../../libs/assist/src/testing';
import { addContacts, attachNumber, createCampaign, credit, expectError } from '../campaigns/campaign-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { pdfWithText } from './pdf-fixture';

/*
 * POST /campaigns/from-brief (a PDF, text or Markdown brief → a DRAFT campaign proposed by the
 * language model) and POST /campaigns/suggest-metric-prompt, through the real app with the
 * sandbox model behind a recorder. Every refusal leaves the workspace without a new campaign.
 */
describe('AI assist: campaign from a brief, metric-prompt suggestions', () => {
  const llm = new RecordingLlm();
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Llm).useValue(llm) });
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    llm.seen.length = 0;
    ws = await t.seed();
  });

  const campaignCount = async () =>
    Number((await t.dataSource.query(`SELECT count(*) AS n FROM campaigns WHERE workspace_id = $1`, [ws.workspaceId]))[0].n);
  const upload = (content: Buffer | string, filename: string, contentType: string, fields: Record<string, string> = {}) => {
    let req = t.http.post('/campaigns/from-brief').set(bearer(ws.key));
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
    return req.attach('file', Buffer.isBuffer(content) ? content : Buffer.from(content), { filename, contentType });
  };

  describe('POST /campaigns/from-brief', () => {
    it('a PDF brief becomes a DRAFT campaign that starts once it has contacts, a number and credit', async () => {
      const agent = await createActiveAgent(t, ws.key);
      const pdf = pdfWithText(['Solar panel follow-up', 'Call homeowners who asked for a quote last month.', 'Book a site visit.']);
      const res = await upload(pdf, 'solar-brief.pdf', 'application/pdf', { agentId: agent.id });
      expect(res.status).toBe(201);
      const { campaign, proposal } = res.body;
      expect(campaign).toMatchObject({
        status: 'DRAFT',
        channel: 'VOICE',
        source: 'CSV',
        agentId: agent.id,
        name: 'Solar panel follow-up',
        goal: proposal.goal,
        briefFileName: 'solar-brief.pdf',
      });
      expect(new Date(campaign.briefUploadedAt).toISOString()).toBe(campaign.briefUploadedAt);
      // The PDF's text (read by unpdf) is the brief: stored on the campaign and given to the model.
      expect(campaign.briefText).toContain('Call homeowners who asked for a quote last month.');
      expect(llm.last('campaign_draft')!.messages.at(-1)!.content).toContain('Book a site visit.');
      expect(proposal.agentPromptOutline.length).toBeGreaterThan(0);
      expect(campaign.customExtractionKeys).toEqual(proposal.extractionKeys);
      expect(campaign.evaluationMetrics.map((m: { key: string }) => m.key)).toEqual(proposal.metrics.map((m: { key: string }) => m.key));
      expect((await t.http.get(`/v1/campaigns/${campaign.id}`).set(bearer(ws.key))).body.briefFileName).toBe('solar-brief.pdf');

      await attachNumber(t, ws.key, ws.workspaceId, campaign.id);
      await addContacts(t, ws.key, campaign.id, ['+14155552671']);
      await credit(t, ws.workspaceId);
      const started = await t.http.post(`/campaigns/${campaign.id}/start`).set(bearer(ws.key)).send({});
      expect(started.status).toBe(200);
      expect(started.body.status).toBe('RUNNING');
    });

    it('Markdown and text files, or briefText as JSON; a taken name is numbered', async () => {
      const md = await upload('# Appointment reminders\n\nRemind patients of tomorrow’s visit.', 'brief.md', 'application/octet-stream');
      expect(md.status).toBe(201);
      expect(md.body.campaign).toMatchObject({ name: 'Appointment reminders', briefFileName: 'brief.md', agentId: null });

      const txt = await upload('Appointment reminders\nSame brief, as text.', 'notes.txt', 'text/plain', { briefText: 'Only weekdays.' });
      expect(txt.status).toBe(201);
      expect(txt.body.campaign.name).toBe('Appointment reminders (2)');
      expect(txt.body.campaign.briefText).toBe('Appointment reminders\nSame brief, as text.\n\nOnly weekdays.');

      const json = await t.http.post('/campaigns/from-brief').set(bearer(ws.key)).send({ briefText: 'Customer feedback survey\nAsk for a score.' });
      expect(json.status).toBe(201);
      expect(json.body.campaign).toMatchObject({ name: 'Customer feedback survey', briefFileName: null, briefUploadedAt: null });
      expect(await campaignCount()).toBe(3);
    });

    it('415 unsupported_brief_type, 400 brief_required, 422 brief_unusable, 400 agent_not_found, 502 suggestion_failed, 413 file_too_large: nothing created', async () => {
      expectError(await upload('PK\u0003\u0004 not a brief', 'brief.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'), 415, 'unsupported_brief_type');
      expectError(await upload('a,b\n1,2\n', 'leads.csv', 'text/csv'), 415, 'unsupported_brief_type');

      expectError(await t.http.post('/campaigns/from-brief').set(bearer(ws.key)).send({}), 400, 'brief_required');
      expectError(await t.http.post('/campaigns/from-brief').set(bearer(ws.key)).send({ briefText: '  \n\t ' }), 400, 'brief_required');
      expectError(await upload('', 'empty.txt', 'text/plain'), 400, 'brief_required');
      expectError(await upload(pdfWithText([]), 'blank.pdf', 'application/pdf'), 400, 'brief_required');

      expectError(await upload('this is not a PDF at all', 'broken.pdf', 'application/pdf'), 422, 'brief_unusable');
      expectError(await upload(Buffer.from([0xff, 0xfe, 0x00, 0xd8]), 'latin.txt', 'text/plain'), 422, 'brief_unusable');
      expectError(await t.http.post('/campaigns/from-brief').set(bearer(ws.key)).send({ briefText: `Webinar invites ${SANDBOX_LLM_MARKERS.notJson}` }), 422, 'brief_unusable');

      expectError(await t.http.post('/campaigns/from-brief').set(bearer(ws.key)).send({ briefText: 'Webinar invites', agentId: '0b9e8a52-3f1d-4c55-9d1c-1e8a4d1f2b3c' }), 400, 'agent_not_found');

      const failed = await t.http.post('/campaigns/from-brief').set(bearer(ws.key)).send({ briefText: `Webinar invites ${SANDBOX_LLM_MARKERS.fail}` });
      expectError(failed, 502, 'suggestion_failed');
      expect(failed.body.upstreamStatus).toBe(500);

      const limit = t.config.uploadMaxBytes;
      expectError(await upload(Buffer.alloc(limit + 1, 0x61), 'huge.txt', 'text/plain'), 413, 'file_too_large');

      expect(await campaignCount()).toBe(0);
    });

    it('needs campaigns.edit', async () => {
      const viewer = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view'] });
      const res = await t.http.post('/campaigns/from-brief').set(bearer(viewer.key)).send({ briefText: 'Webinar invites' });
      expectError(res, 403, 'forbidden');
      expect(res.body.requiredPermission).toBe('campaigns.edit');
    });
  });

  describe('POST /campaigns/suggest-metric-prompt', () => {
    const suggest = (body: Record<string, unknown>) => t.http.post('/campaigns/suggest-metric-prompt').set(bearer(ws.key)).send(body);
    const metric = { key: 'qualified', label: 'Qualified lead', allowedValues: ['yes', 'no', 'unclear'] };

    it('answers a prompt written for the metric and the campaign (saved, or the draft being edited)', async () => {
      const agent = await createActiveAgent(t, ws.key);
      const campaign = await createCampaign(t, ws.key, { agentId: agent.id, goal: 'Book solar site visits' });
      const res = await suggest({ campaignId: campaign.id, ...metric });
      expect(res.status).toBe(200);
      expect(res.body.prompt).toContain('Qualified lead');
      expect(res.body.prompt).toContain('yes, no, unclear');
      const told = JSON.parse(llm.last('metric_prompt')!.messages.at(-1)!.content);
      expect(told).toMatchObject({ campaign: { name: campaign.name, goal: 'Book solar site visits' }, agent: { name: agent.name } });

      const drafted = await suggest({ ...metric, draft: { name: 'Not saved yet', goal: 'Sell', agentId: agent.id } });
      expect(drafted.status).toBe(200);
      expect(JSON.parse(llm.last('metric_prompt')!.messages.at(-1)!.content).campaign.name).toBe('Not saved yet');
    });

    it('422 rewrite_too_long, 502 suggestion_failed, 400 agent_not_found, 404 campaign_not_found, 400 invalid_body', async () => {
      expectError(await suggest({ ...metric, label: `Qualified ${SANDBOX_LLM_MARKERS.tooLong}` }), 422, 'rewrite_too_long');
      const failed = await suggest({ ...metric, draft: { goal: SANDBOX_LLM_MARKERS.fail } });
      expectError(failed, 502, 'suggestion_failed');
      expect(failed.body.upstreamStatus).toBe(500);
      expectError(await suggest({ ...metric, draft: { agentId: 'no-such-agent' } }), 400, 'agent_not_found');
      expectError(await suggest({ ...metric, campaignId: '0b9e8a52-3f1d-4c55-9d1c-1e8a4d1f2b3c' }), 404, 'campaign_not_found');
      expectError(await suggest({ label: 'x', allowedValues: ['a'] }), 400, 'invalid_body');
    });
  });
});
