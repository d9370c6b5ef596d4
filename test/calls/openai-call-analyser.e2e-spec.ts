import { AnalysisInput, AnalysisProviderError, OpenAiCallAnalyser } from '@outreach/calls';
import { completion, StubChatServer } from './stub-chat-server';

/*
 * The OpenAI-compatible adapter against a stub chat-completions server on 127.0.0.1 (node:http),
 * started here: never the internet.
 */

const input: AnalysisInput = {
  transcript: 'Agent: Hello, is this Dana?\nCaller: Yes. We have a budget of 5000 and want a site visit on March 3rd.',
  extractionKeys: [
    { name: 'budget', type: 'number', description: 'Budget in dollars' },
    { name: 'visit_date', type: 'date', description: 'Preferred visit date' },
    { name: 'notes', type: 'string', description: 'Anything else' },
  ],
  metrics: [
    { key: 'qualified', label: 'Qualified', allowedValues: ['yes', 'no', 'unclear'], prompt: 'Is the lead qualified?' },
    { key: 'tone', label: 'Tone', allowedValues: ['Positive', 'Neutral', 'Negative'], prompt: 'Caller tone' },
    { key: 'urgency', label: 'Urgency', allowedValues: ['high', 'low'], prompt: 'How urgent?' },
  ],
};

describe('OpenAiCallAnalyser (stub chat-completions server on 127.0.0.1)', () => {
  const stub = new StubChatServer();
  const analyser = (timeoutMs = 2000, baseUrl = stub.baseUrl) =>
    new OpenAiCallAnalyser({ baseUrl, apiKey: 'sk-test-123', model: 'gpt-test', timeoutMs });

  beforeAll(() => stub.start());
  afterAll(() => stub.stop());
  beforeEach(() => {
    stub.seen.length = 0;
  });

  async function failure(promise: Promise<unknown>): Promise<AnalysisProviderError> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AnalysisProviderError);
    return error as AnalysisProviderError;
  }

  it('posts one chat completion in JSON mode with the bearer key and keeps only what was asked for', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        completion(
          JSON.stringify({
            extraction: { budget: 5000, visit_date: '2026-03-03', invented_key: 'x', notes: null },
            evaluation: { qualified: 'yes', tone: 'positive', urgency: 'extreme', unknown_metric: 'yes' },
          }),
        ),
      );
    };
    const result = await analyser().analyse(input);

    expect(result).toEqual({
      extraction: { budget: 5000, visit_date: '2026-03-03' },
      evaluation: { qualified: 'yes', tone: 'Positive' },
    });
    expect(stub.seen).toHaveLength(1);
    const [req] = stub.seen;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test-123');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.body).toMatchObject({ model: 'gpt-test', response_format: { type: 'json_object' } });
    const messages = req.body.messages as Array<{ role: string; content: string }>;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    const asked = JSON.parse(messages[1].content);
    expect(asked.transcript).toBe(input.transcript);
    expect(asked.fields.map((f: { name: string }) => f.name)).toEqual(['budget', 'visit_date', 'notes']);
    expect(asked.metrics[0]).toEqual({ key: 'qualified', label: 'Qualified', allowedValues: ['yes', 'no', 'unclear'], prompt: 'Is the lead qualified?' });
  });

  it('message content that is not JSON → malformed_response, not retryable', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(completion('Sure! The budget is 5000.'));
    };
    const error = await failure(analyser().analyse(input));
    expect({ reason: error.reason, retryable: error.retryable }).toEqual({ reason: 'malformed_response', retryable: false });
  });

  it('a body that is not a chat completion, or content without the two objects → malformed_response', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>gateway</html>');
    };
    expect((await failure(analyser().analyse(input))).reason).toBe('malformed_response');

    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(completion(JSON.stringify({ extraction: ['budget'], evaluation: {} })));
    };
    expect((await failure(analyser().analyse(input))).reason).toBe('malformed_response');
  });

  it('500 → upstream_status with upstreamStatus 500, retryable; 401 → not retryable', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'boom' } }));
    };
    const serverError = await failure(analyser().analyse(input));
    expect({ reason: serverError.reason, upstreamStatus: serverError.upstreamStatus, retryable: serverError.retryable }).toEqual({
      reason: 'upstream_status',
      upstreamStatus: 500,
      retryable: true,
    });

    stub.handler = (_req, res) => {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'bad key' } }));
    };
    const unauthorised = await failure(analyser().analyse(input));
    expect({ reason: unauthorised.reason, upstreamStatus: unauthorised.upstreamStatus, retryable: unauthorised.retryable }).toEqual({
      reason: 'upstream_status',
      upstreamStatus: 401,
      retryable: false,
    });
  });

  it('no answer within the timeout → timeout (retryable), promptly', async () => {
    stub.handler = () => undefined; // never answers
    const started = Date.now();
    const error = await failure(analyser(300).analyse(input));
    expect({ reason: error.reason, retryable: error.retryable }).toEqual({ reason: 'timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('nothing listening → unreachable (retryable)', async () => {
    const closed = new StubChatServer();
    await closed.start();
    const url = closed.baseUrl;
    await closed.stop();
    const error = await failure(analyser(2000, url).analyse(input));
    expect({ reason: error.reason, retryable: error.retryable }).toEqual({ reason: 'unreachable', retryable: true });
  });
});
