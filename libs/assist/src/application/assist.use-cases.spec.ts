import { AppConfig, AppError, FixedClock } from '@outreach/core';
import { InMemoryAgentDirectory } from '../../../agents/src/testing';
import { FakePdfTextReader, FixedCampaignFigures, InMemoryCampaignDrafts, InMemoryChatSessions, RecordingLlm, SANDBOX_LLM_MARKERS, ScriptedLlm } from '../testing';
import { readProposal } from './briefs/campaign-proposal';
import { DraftCampaignFromBrief } from './briefs/draft-campaign-from-brief.use-case';
import { CampaignChat } from './chat/campaign-chat';
import { LlmError } from './llm/llm.port';
import { SuggestMetricPrompt } from './suggestions/suggest-metric-prompt.use-case';

/* The assist use cases over in-memory fakes of their ports (no Nest, no database). */
const W = 'ws-1';
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof AppError ? `${e.status} ${e.code}` : String(e)),
  );

describe('readProposal', () => {
  it('keeps what the campaign accepts and drops the rest; no name or goal → null', () => {
    const proposal = readProposal(
      '```json\n' +
        JSON.stringify({
          name: '  Solar  ',
          goal: 'Book visits',
          agentPromptOutline: 'Greet\nAsk\n',
          extractionKeys: [
            { name: 'budget', type: 'number', description: 'Budget' },
            { name: 'Budget', type: 'string', description: 'duplicate' },
            { name: '1bad', description: 'bad name' },
            { name: 'interested', description: 'a built-in signal' },
            { name: 'visit', type: 'weird' },
          ],
          metrics: [
            { key: 'qualified', label: 'Q', allowedValues: ['yes', 'no', 'yes'], prompt: 'Qualified?' },
            { key: 'budget', allowedValues: ['x'], prompt: 'collides with a key' },
            { key: 'empty', allowedValues: [], prompt: 'no values' },
          ],
        }) +
        '\n```',
    );
    expect(proposal).toEqual({
      name: 'Solar',
      goal: 'Book visits',
      description: null,
      agentPromptOutline: ['Greet', 'Ask'],
      extractionKeys: [
        { name: 'budget', type: 'number', description: 'Budget' },
        { name: 'visit', type: 'string', description: 'visit' },
      ],
      metrics: [{ key: 'qualified', label: 'Q', allowedValues: ['yes', 'no'], prompt: 'Qualified?' }],
    });
    expect(readProposal('{"name":"x"}')).toBeNull();
    expect(readProposal('no json')).toBeNull();
    expect(readProposal('[1,2]')).toBeNull();
  });
});

describe('DraftCampaignFromBrief', () => {
  const setup = (llm = new RecordingLlm()) => {
    const drafts = new InMemoryCampaignDrafts();
    const agents = new InMemoryAgentDirectory();
    const useCase = new DraftCampaignFromBrief(llm, new FakePdfTextReader(), drafts, agents, new FixedClock(new Date('2026-11-25T10:00:00Z')));
    return { llm, drafts, agents, useCase };
  };
  const file = (text: string, fileName: string, mimeType = 'application/octet-stream') => ({ buffer: Buffer.from(text), fileName, mimeType });

  it('checks in order: type (415) → readable (422) → text (400) → agent → model (502, 422); nothing created on a refusal', async () => {
    const { useCase, drafts, llm } = setup();
    expect(await codeOf(useCase.execute(W, { file: file('x', 'a.docx'), agentId: 'missing' }))).toBe('415 unsupported_brief_type');
    expect(await codeOf(useCase.execute(W, { file: file('garbage', 'a.pdf'), agentId: 'missing' }))).toBe('422 brief_unusable');
    expect(await codeOf(useCase.execute(W, { file: file('%PDF-  ', 'a.pdf'), agentId: 'missing' }))).toBe('400 brief_required');
    // The catalogue's 404: the route answers it with 400 (@AnswerErrors), statuses belong to HTTP (decisions.md 25.6).
    expect(await codeOf(useCase.execute(W, { briefText: 'Brief', agentId: 'missing' }))).toBe('404 agent_not_found');
    expect(llm.seen).toHaveLength(0);
    expect(await codeOf(useCase.execute(W, { briefText: `Brief ${SANDBOX_LLM_MARKERS.fail}` }))).toBe('502 suggestion_failed');
    expect(await codeOf(useCase.execute(W, { briefText: `Brief ${SANDBOX_LLM_MARKERS.notJson}` }))).toBe('422 brief_unusable');
    expect(drafts.created).toHaveLength(0);
  });

  it('a file (type by extension, else media type) and notes become one brief; briefUploadedAt only with a file', async () => {
    const { useCase, drafts, agents } = setup();
    agents.add({ id: 'agent-1', workspaceId: W });
    await useCase.execute(W, { file: file('%PDF-Solar leads\r\n\r\n\r\nCall them', 'brief.PDF'), briefText: 'Weekdays', agentId: 'agent-1' });
    expect(drafts.created[0].input).toMatchObject({
      name: 'Solar leads',
      agentId: 'agent-1',
      briefText: 'Solar leads\n\nCall them\n\nWeekdays',
      briefFileName: 'brief.PDF',
      briefUploadedAt: '2026-11-25T10:00:00.000Z',
    });
    await useCase.execute(W, { file: file('# Notes', 'notes', 'text/markdown') });
    await useCase.execute(W, { briefText: 'Plain' });
    expect(drafts.created.map((c) => [c.input.name, c.input.briefFileName, c.input.briefUploadedAt])).toEqual([
      ['Solar leads', 'brief.PDF', '2026-11-25T10:00:00.000Z'],
      ['Notes', 'notes', '2026-11-25T10:00:00.000Z'],
      ['Plain', null, null],
    ]);
    expect(await codeOf(useCase.execute(W, { file: file('x', 'notes', 'image/png') }))).toBe('415 unsupported_brief_type');
  });
});

describe('SuggestMetricPrompt', () => {
  const metric = { key: 'qualified', label: 'Qualified', allowedValues: ['yes', 'no'] };

  it('404 campaign_not_found, agent_not_found, 502 on failure or an empty answer, 422 over 5,000 characters', async () => {
    const drafts = new InMemoryCampaignDrafts();
    const agents = new InMemoryAgentDirectory();
    drafts.add(W, { id: 'c1', agentId: 'gone' } as never);
    const run = (answer: string | Error, input: Record<string, unknown> = {}) =>
      codeOf(new SuggestMetricPrompt(new ScriptedLlm(answer), drafts, agents).execute(W, { ...metric, ...input }));
    expect(await run('ok', { campaignId: 'nope' })).toBe('404 campaign_not_found');
    expect(await run('ok', { campaignId: 'c1' })).toBe('404 agent_not_found'); // 400 at the route (@AnswerErrors)
    expect(await run(new LlmError('timeout', 'slow'))).toBe('502 suggestion_failed');
    expect(await run('  ""  ')).toBe('502 suggestion_failed');
    expect(await run('x'.repeat(5001))).toBe('422 rewrite_too_long');
    expect(await new SuggestMetricPrompt(new ScriptedLlm(`"${'x'.repeat(5000)}"`), drafts, agents).execute(W, metric)).toEqual({ prompt: 'x'.repeat(5000) });
  });
});

describe('CampaignChat', () => {
  const setup = (limit = 2) => {
    const llm = new RecordingLlm();
    const drafts = new InMemoryCampaignDrafts();
    drafts.add(W, { id: 'c1', name: 'Solar' } as never);
    const figures = new FixedCampaignFigures();
    figures.figures_ = { ...figures.figures_, contactCount: 3, contactsByStatus: { PENDING: 1, COMPLETED: 2 }, callCount: 2, sampledCalls: 2, extractionValues: { budget: { '1200': 1, '5000': 2 } } };
    const sessions = new InMemoryChatSessions();
    const chat = new CampaignChat(llm, drafts, figures, sessions, { chatMessageLimit: limit } as AppConfig, new FixedClock(new Date('2026-11-25T10:00:00Z')));
    return { llm, sessions, chat };
  };

  it('grounds the model in the figures, keeps the exchange, stops at the cap', async () => {
    const { llm, sessions, chat } = setup();
    const first = await chat.answer(await chat.prepare(W, { campaignId: 'c1', message: ' Hello ' }));
    expect(llm.seen[0].messages[0].content).toContain('Contacts by status: PENDING 1, COMPLETED 2');
    expect(llm.seen[0].messages[0].content).toContain('- budget: 5000 2, 1200 1');
    expect(first.messages.map((m) => [m.seq, m.role])).toEqual([
      [1, 'user'],
      [2, 'assistant'],
    ]);
    expect(first.messages[0].content).toBe('Hello');
    await chat.answer(await chat.prepare(W, { campaignId: 'c1', sessionId: first.session.id, message: 'Again' }));
    expect(await codeOf(chat.prepare(W, { campaignId: 'c1', sessionId: first.session.id, message: 'Third' }))).toBe('429 message_limit_reached');
    expect(sessions.stored).toHaveLength(4);
  });

  it('refusals and failures store nothing; a stream is stored when it completes', async () => {
    const { llm, sessions, chat } = setup();
    expect(await codeOf(chat.prepare(W, { campaignId: 'c1', message: ' ' }))).toBe('400 empty_message');
    expect(await codeOf(chat.prepare(W, { campaignId: 'c2', message: 'Hi' }))).toBe('404 campaign_not_found');
    expect(await codeOf(chat.prepare(W, { campaignId: 'c1', sessionId: 'not-a-uuid', message: 'Hi' }))).toBe('404 session_not_found');
    expect(await codeOf(chat.prepare(W, { campaignId: 'c1', sessionId: '0b0b0b0b-0000-4000-8000-000000000000', message: 'Hi' }))).toBe('404 session_not_found');
    expect(await codeOf(chat.prepare(W, { campaignId: 'c1', message: `Hi ${SANDBOX_LLM_MARKERS.fail}` }).then((turn) => chat.answer(turn)))).toBe('500 chat_failed');

    const broken = chat.stream(await chat.prepare(W, { campaignId: 'c1', message: `Hi ${SANDBOX_LLM_MARKERS.failMidStream}` }));
    const tokens: string[] = [];
    const outcome = await codeOf(
      (async () => {
        for (let next = await broken.next(); !next.done; next = await broken.next()) tokens.push(next.value);
      })(),
    );
    expect({ outcome, tokens: tokens.length }).toEqual({ outcome: '500 chat_failed', tokens: 3 });
    expect(sessions.stored).toHaveLength(0);

    const stream = chat.stream(await chat.prepare(W, { campaignId: 'c1', message: 'Stream it' }));
    let next = await stream.next();
    const streamed: string[] = [];
    while (!next.done) {
      streamed.push(next.value);
      next = await stream.next();
    }
    expect(next.value.messages[1].content).toBe(streamed.join(''));
    expect(llm.seen.at(-1)!.streamed).toBe(true);
    expect(sessions.stored).toHaveLength(2);
  });
});
