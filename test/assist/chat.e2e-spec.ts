import { AddressInfo } from 'node:net';
import { Llm, OpenAiCompatibleLlm, SANDBOX_LLM_MARKERS, SandboxLlm } from '@outreach/assist';
import { RecordingLlm } from '../../libs/assist/src/testing';
import { failWith, StubChatServer } from '../calls/stub-chat-server';
import { recordCall } from '../calls/call-fixtures';
import { addContacts, createCampaign, expectError } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';

/*
 * Campaign chat (POST /campaigns/{id}/chat, JSON or server-sent events; GET …/chat/sessions/{sid}):
 * answers grounded in the campaign's own figures, sessions persisted, the fair-use cap
 * (CHAT_MESSAGE_LIMIT, 3 here), and every refusal leaving the session as it was.
 */
const LIMIT = 3;

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

describe('AI assist: campaign chat', () => {
  const llm = new RecordingLlm();
  let t: TestApp;
  let base: string;
  let ws: Seeded;
  let campaignId: string;

  beforeAll(async () => {
    process.env.CHAT_MESSAGE_LIMIT = String(LIMIT);
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Llm).useValue(llm) });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    delete process.env.CHAT_MESSAGE_LIMIT;
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    llm.seen.length = 0;
    llm.current = new SandboxLlm();
    ws = await t.seed();
    campaignId = (await createCampaign(t, ws.key)).id;
  });

  const chat = (body: unknown, id = campaignId, key = ws.key) => t.http.post(`/campaigns/${id}/chat`).set(bearer(key)).send(body as object);
  const session = (sid: string, id = campaignId, key = ws.key) => t.http.get(`/campaigns/${id}/chat/sessions/${sid}`).set(bearer(key));
  const messageRows = async () => Number((await t.dataSource.query(`SELECT count(*) AS n FROM campaign_chat_messages`))[0].n);

  /** POST with Accept: text/event-stream over a real connection; the events as they arrived. */
  async function streamChat(body: unknown): Promise<{ status: number; contentType: string; events: SseEvent[]; json?: Record<string, unknown> }> {
    const res = await fetch(`${base}/campaigns/${campaignId}/chat`, {
      method: 'POST',
      headers: { ...bearer(ws.key), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(body),
    });
    const contentType = res.headers.get('content-type') ?? '';
    const text = await res.text();
    if (!contentType.startsWith('text/event-stream')) return { status: res.status, contentType, events: [], json: JSON.parse(text) };
    const events = text
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map((block) => {
        const event = /^event: (.+)$/m.exec(block)?.[1] ?? 'message';
        const data = JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? '{}');
        return { event, data };
      });
    return { status: res.status, contentType, events };
  }

  /** Five contacts and three analysed calls, with known figures. */
  async function seedFigures(): Promise<void> {
    await addContacts(t, ws.key, campaignId, ['+14155550101', '+14155550102', '+14155550103', '+14155550104', '+14155550105']);
    const contacts: Array<{ id: string; phone: string }> = await t.dataSource.query(
      `SELECT id, phone FROM campaign_contacts WHERE campaign_id = $1 ORDER BY phone`,
      [campaignId],
    );
    // Seeded as the engine would leave them: two completed, one failed on busy, two pending.
    const settle = (i: number, status: string, outcome: string) =>
      t.dataSource.query(`UPDATE campaign_contacts SET status = $2, last_outcome = $3, attempts = 1, last_attempt_at = now() WHERE id = $1`, [contacts[i].id, status, outcome]);
    await settle(0, 'COMPLETED', 'completed');
    await settle(1, 'COMPLETED', 'completed');
    await settle(2, 'FAILED', 'busy');
    const analysed = [
      { contact: 0, to: '+14155550106', extraction: { budget: 5000 }, evaluation: { qualified: 'yes' } },
      { contact: 1, to: '+14155550107', extraction: { budget: 5000 }, evaluation: { qualified: 'yes' } },
      { contact: 2, to: '+14155550101', extraction: { budget: 1200 }, evaluation: { qualified: 'no' } },
    ];
    for (const call of analysed) {
      const id = await recordCall(t, { workspaceId: ws.workspaceId, campaignId, contactId: contacts[call.contact].id, to: call.to });
      await t.dataSource.query(`UPDATE calls SET extraction = $2, evaluation = $3, analysis_status = 'DONE' WHERE id = $1`, [
        id,
        JSON.stringify(call.extraction),
        JSON.stringify(call.evaluation),
      ]);
    }
  }

  it("answers from the campaign's own figures, which the model receives as context; the session keeps the exchange", async () => {
    await seedFigures();
    const res = await chat({ message: 'How is the campaign doing?' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sessionId: expect.any(String), messagesLeft: LIMIT - 1, reply: { role: 'assistant', seq: 2 } });

    const context = llm.last('campaign_chat')!.messages[0];
    expect(context.role).toBe('system');
    expect(context.content).toContain('Contacts: 5');
    expect(context.content).toContain('Contacts by status: PENDING 2, IN_PROGRESS 0, RETRY_SCHEDULED 0, COMPLETED 2, FAILED 1, DO_NOT_CALL 0');
    expect(context.content).toContain('Contacts by last call outcome: busy 1, completed 2');
    expect(context.content).toContain('Calls placed: 3');
    expect(context.content).toContain('- budget: 5000 2, 1200 1');
    expect(context.content).toContain('- qualified: yes 2, no 1');
    // The sandbox quotes the figures it was given: the answer is grounded, not invented.
    expect(res.body.reply.content).toContain('COMPLETED 2, FAILED 1');

    const again = await chat({ message: 'And the budgets?', sessionId: res.body.sessionId });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ sessionId: res.body.sessionId, messagesLeft: LIMIT - 2, reply: { seq: 4 } });
    expect(llm.last('campaign_chat')!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);

    const stored = await session(res.body.sessionId);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ id: res.body.sessionId, campaignId, userMessageCount: 2, messageLimit: LIMIT });
    expect(stored.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'How is the campaign doing?'],
      ['assistant', res.body.reply.content],
      ['user', 'And the budgets?'],
      ['assistant', again.body.reply.content],
    ]);
  });

  it('Accept: text/event-stream streams the answer token by token, then stores it', async () => {
    const { status, contentType, events } = await streamChat({ message: 'Summarise the campaign' });
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/event-stream/);
    expect(events[0].event).toBe('session');
    const tokens = events.filter((e) => e.event === 'token').map((e) => e.data.content as string);
    expect(tokens.length).toBeGreaterThan(3);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    const reply = done.data.reply as { content: string };
    expect(tokens.join('')).toBe(reply.content);
    expect(llm.last('campaign_chat')!.streamed).toBe(true);

    const stored = await session(done.data.sessionId as string);
    expect(stored.body.messages.map((m: { content: string }) => m.content)).toEqual(['Summarise the campaign', reply.content]);
  });

  it('stops at the cap: 429 message_limit_reached (JSON and stream), nothing stored', async () => {
    const first = await chat({ message: 'one' });
    const sid = first.body.sessionId;
    expect((await chat({ message: 'two', sessionId: sid })).status).toBe(200);
    // The last place, asked for twice at once: the session row is locked when the exchange is
    // stored and the count read again, so exactly one of them gets it.
    const racing = await Promise.all([streamChat({ message: 'three', sessionId: sid }), chat({ message: 'three too', sessionId: sid })]);
    // The stream that loses after its tokens ends with an `error` event naming the code.
    const last = racing[0].events.at(-1);
    const streamOutcome = racing[0].status !== 200 ? racing[0].json?.error : last!.event === 'done' ? 'done' : last!.data.error;
    const outcomes = [streamOutcome, racing[1].status === 200 ? 'done' : racing[1].body.error];
    expect(outcomes.sort()).toEqual(['done', 'message_limit_reached']);

    expectError(await chat({ message: 'four', sessionId: sid }), 429, 'message_limit_reached');
    const streamed = await streamChat({ message: 'four', sessionId: sid });
    expect({ status: streamed.status, error: streamed.json?.error }).toEqual({ status: 429, error: 'message_limit_reached' });
    expect((await session(sid)).body.messages).toHaveLength(2 * LIMIT);
    // A new session starts from zero.
    expect((await chat({ message: 'five' })).status).toBe(200);
  });

  it('400 empty_message, 500 chat_failed (invalid input, a failing model), 404 campaign_not_found / session_not_found: nothing stored', async () => {
    const sid = (await chat({ message: 'hello' })).body.sessionId;
    const before = await messageRows();

    expectError(await chat({ message: '   \n ', sessionId: sid }), 400, 'empty_message');
    // The contract: invalid input on the non-streaming POST is 500 chat_failed.
    expectError(await chat({}), 500, 'chat_failed');
    expectError(await chat({ message: 42 }), 500, 'chat_failed');
    expectError(await chat({ message: 'hi', extra: true }), 500, 'chat_failed');
    // …while the streaming POST refuses it like any body.
    const invalidStream = await streamChat({ message: 42 });
    expect({ status: invalidStream.status, error: invalidStream.json?.error }).toEqual({ status: 400, error: 'invalid_body' });

    const failed = await chat({ message: `Why? ${SANDBOX_LLM_MARKERS.fail}`, sessionId: sid });
    expectError(failed, 500, 'chat_failed');
    expect(failed.body.upstreamStatus).toBe(500);
    // A model failing before its first token: an ordinary JSON 500, even when streaming was asked.
    const failedStream = await streamChat({ message: `Why? ${SANDBOX_LLM_MARKERS.fail}`, sessionId: sid });
    expect({ status: failedStream.status, error: failedStream.json?.error }).toEqual({ status: 500, error: 'chat_failed' });
    // A model failing mid-stream: tokens, then an error event; the exchange is not stored.
    const broken = await streamChat({ message: `Why? ${SANDBOX_LLM_MARKERS.failMidStream}`, sessionId: sid });
    expect(broken.status).toBe(200);
    expect(broken.events.filter((e) => e.event === 'token')).toHaveLength(3);
    expect(broken.events.at(-1)).toMatchObject({ event: 'error', data: { error: 'chat_failed' } });

    const unknown = '3f2b8a52-3f1d-4c55-9d1c-1e8a4d1f2b3c';
    expectError(await chat({ message: 'hi' }, unknown), 404, 'campaign_not_found');
    expectError(await chat({ message: 'hi', sessionId: unknown }), 404, 'session_not_found');
    expectError(await chat({ message: 'hi', sessionId: 'not-a-uuid' }), 404, 'session_not_found');
    expectError(await session(unknown), 404, 'session_not_found');
    expectError(await session('not-a-uuid'), 404, 'session_not_found');
    expectError(await session(sid, unknown), 404, 'campaign_not_found');
    // A session belongs to its campaign (and workspace).
    const other = (await createCampaign(t, ws.key)).id;
    expectError(await session(sid, other), 404, 'session_not_found');
    expectError(await chat({ message: 'hi', sessionId: sid }, other), 404, 'session_not_found');
    const stranger = await t.seed();
    expectError(await session(sid, campaignId, stranger.key), 404, 'campaign_not_found');

    expect(await messageRows()).toBe(before);
    expect((await session(sid)).body.userMessageCount).toBe(1);
  });

  it('through the OpenAI-compatible adapter and a stub server: its streamed chunks reach the client as tokens; its 500 is 500 chat_failed', async () => {
    const stub = new StubChatServer();
    await stub.start();
    try {
      llm.current = new OpenAiCompatibleLlm({ baseUrl: stub.baseUrl, apiKey: 'sk-stub', model: 'stub-model', timeoutMs: 2000 });
      stub.handler = (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        for (const content of ['Two ', 'leads ', 'completed.']) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`);
        res.end('data: [DONE]\n\n');
      };
      const streamed = await streamChat({ message: 'How many completed?' });
      expect(streamed.events.filter((e) => e.event === 'token').map((e) => e.data.content)).toEqual(['Two ', 'leads ', 'completed.']);
      expect(streamed.events.at(-1)).toMatchObject({ event: 'done', data: { reply: { content: 'Two leads completed.' } } });
      expect(stub.seen[0].body).toMatchObject({ model: 'stub-model', stream: true });
      expect((stub.seen[0].body.messages as Array<{ content: string }>)[0].content).toContain('Contacts by status:');

      stub.handler = failWith(500);
      const failed = await chat({ message: 'And now?' });
      expectError(failed, 500, 'chat_failed');
      expect(failed.body.upstreamStatus).toBe(500);
      const failedStream = await streamChat({ message: 'And now?' });
      expect({ status: failedStream.status, error: failedStream.json?.error }).toEqual({ status: 500, error: 'chat_failed' });
      expect(await messageRows()).toBe(2);
    } finally {
      await stub.stop();
    }
  });

  it('scopes: campaigns.edit to chat, campaigns.view to read a session', async () => {
    const sid = (await chat({ message: 'hello' })).body.sessionId;
    const viewer = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view'] });
    const refused = await chat({ message: 'hi' }, campaignId, viewer.key);
    expectError(refused, 403, 'forbidden');
    expect(refused.body.requiredPermission).toBe('campaigns.edit');
    expect((await session(sid, campaignId, viewer.key)).status).toBe(200);
  });
});
