import { LlmError, OpenAiCompatibleLlm } from '@outreach/assist';
import { completion, failWith, StubChatServer } from '../calls/stub-chat-server';

/*
 * The OpenAI-compatible adapter of the Llm port against a stub chat-completions server on
 * 127.0.0.1 (node:http): the request it sends, a plain completion, a streamed one (SSE chunks up
 * to [DONE]), and every failure as a typed LlmError.
 */
describe('OpenAiCompatibleLlm (stub server)', () => {
  const stub = new StubChatServer();
  let llm: OpenAiCompatibleLlm;

  beforeAll(async () => {
    await stub.start();
    llm = new OpenAiCompatibleLlm({ baseUrl: stub.baseUrl, apiKey: 'sk-stub', model: 'stub-model', timeoutMs: 1500 });
  });
  afterAll(() => stub.stop());
  beforeEach(() => (stub.seen.length = 0));

  const messages = [
    { role: 'system' as const, content: 'You help.' },
    { role: 'user' as const, content: 'Hello?' },
  ];
  const collect = async (tokens: AsyncIterable<string>) => {
    const out: string[] = [];
    for await (const t of tokens) out.push(t);
    return out;
  };

  it('complete: POST {base}/chat/completions with the model, messages and options; answers choices[0].message.content', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(completion('{"name":"Solar"}'));
    };
    expect(await llm.complete(messages, { purpose: 'campaign_draft', json: true, temperature: 0.2, maxTokens: 300 })).toBe('{"name":"Solar"}');
    expect(stub.seen).toHaveLength(1);
    expect(stub.seen[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(stub.seen[0].headers.authorization).toBe('Bearer sk-stub');
    expect(stub.seen[0].body).toEqual({
      model: 'stub-model',
      messages,
      temperature: 0.2,
      max_tokens: 300,
      response_format: { type: 'json_object' },
    });
  });

  it('stream: `stream: true`, SSE data chunks (role chunk, content deltas split across writes, comments) up to [DONE]', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const chunk = (delta: Record<string, unknown>) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta }] })}\n\n`;
      res.write(': keep-alive\n\n');
      res.write(chunk({ role: 'assistant' }));
      res.write(chunk({ content: 'Seven ' }));
      // One event split across two writes: the adapter buffers until the line ends.
      const split = chunk({ content: 'leads ' });
      res.write(split.slice(0, 20));
      setTimeout(() => {
        res.write(split.slice(20));
        res.write(chunk({ content: 'answered.' }));
        res.write('data: [DONE]\n\n');
        res.end();
      }, 20);
    };
    expect(await collect(llm.stream(messages, { purpose: 'campaign_chat' }))).toEqual(['Seven ', 'leads ', 'answered.']);
    expect(stub.seen[0].body).toMatchObject({ model: 'stub-model', messages, stream: true });
    expect(stub.seen[0].headers.accept).toBe('text/event-stream');
  });

  it('a 500 from the server is LlmError upstream_status 500, streamed or not', async () => {
    stub.handler = failWith(500);
    await expect(llm.complete(messages, { purpose: 'campaign_chat' })).rejects.toMatchObject({ name: 'LlmError', reason: 'upstream_status', upstreamStatus: 500 });
    await expect(collect(llm.stream(messages, { purpose: 'campaign_chat' }))).rejects.toMatchObject({ reason: 'upstream_status', upstreamStatus: 500 });
  });

  it('a stream cut before [DONE], a non-JSON answer, a timeout and a closed port are typed failures too', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Half' } }] })}\n\n`);
    };
    const seen: string[] = [];
    const cut = (async () => {
      for await (const t of llm.stream(messages, { purpose: 'campaign_chat' })) seen.push(t);
    })();
    await expect(cut).rejects.toMatchObject({ reason: 'malformed_response' });
    expect(seen).toEqual(['Half']);

    stub.handler = (_req, res) => res.end('<html>gateway</html>');
    await expect(llm.complete(messages, { purpose: 'campaign_chat' })).rejects.toMatchObject({ reason: 'malformed_response' });

    stub.handler = () => undefined; // never answers
    await expect(llm.complete(messages, { purpose: 'campaign_chat' })).rejects.toMatchObject({ reason: 'timeout' });

    const closed = new OpenAiCompatibleLlm({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', timeoutMs: 1000 });
    const error = await closed.complete(messages, { purpose: 'campaign_chat' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).reason).toBe('unreachable');
  });
});
