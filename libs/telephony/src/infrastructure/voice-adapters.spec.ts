import { AppError } from '@outreach/core';
import { twilioOutcome, twilioSignature } from './twilio-voice.adapter';
import { vapiAssistant, vapiOutcome } from './vapi-voice.adapter';
import { ProviderHttp } from './provider-http';

/* The real adapters' pure parts: outcome mappings, Twilio's signature, and the bounded retries. */

describe('twilioSignature', () => {
  it("matches Twilio's documented example (auth token 12345)", () => {
    const params = new URLSearchParams({ CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' });
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });

  it('sorts parameters by name whatever their order in the body', () => {
    const a = new URLSearchParams([['To', '+1'], ['CallSid', 'CA1']]);
    const b = new URLSearchParams([['CallSid', 'CA1'], ['To', '+1']]);
    expect(twilioSignature('t', 'https://x.test/w', a)).toBe(twilioSignature('t', 'https://x.test/w', b));
  });
});

describe('outcome mappings', () => {
  it.each([
    ['completed', 'human', 'completed'],
    ['completed', null, 'completed'],
    ['completed', 'machine_start', 'voicemail'],
    ['completed', 'machine_end_beep', 'voicemail'],
    ['completed', 'fax', 'voicemail'],
    ['busy', null, 'busy'],
    ['no-answer', null, 'no_answer'],
    ['canceled', null, 'no_answer'],
    ['failed', null, 'carrier_failure'],
  ])('Twilio %s answered by %s → %s', (status, answeredBy, outcome) => {
    expect(twilioOutcome(status, answeredBy)).toBe(outcome);
  });

  it.each([
    ['customer-did-not-answer', 'no_answer'],
    ['customer-busy', 'busy'],
    ['voicemail', 'voicemail'],
    ['assistant-forwarded-call', 'transferred'],
    ['twilio-failed-to-connect-call', 'carrier_failure'],
    ['pipeline-error-openai-llm-failed', 'carrier_failure'],
    ['call.in-progress.error-vapifault-transport-never-connected', 'carrier_failure'],
    ['customer-ended-call', 'completed'],
    ['assistant-ended-call', 'completed'],
    ['silence-timed-out', 'completed'],
    ['exceeded-max-duration', 'completed'],
    [null, 'completed'],
  ])('Vapi endedReason %s → %s', (reason, outcome) => {
    expect(vapiOutcome(reason)).toBe(outcome);
  });
});

describe('vapiAssistant', () => {
  it('carries custom functions as function tools with their server URL, and no transfer tool when transfer is off', () => {
    const body = vapiAssistant(
      {
        agentId: 'a1',
        workspaceId: 'w1',
        name: 'A very long agent name that Vapi would refuse as such',
        prompt: 'Be kind.',
        greeting: null,
        voice: { id: 'Aria', provider: 'vapi' },
        maxCallDurationSecs: 600,
        enableRecording: false,
        endCall: { enabled: false, message: null },
        voicemail: { detection: false, message: null },
        transfer: null,
        functions: [{ name: 'book', description: 'Books a visit', parameters: { type: 'object' }, url: 'https://crm.test/book' }],
      },
      'https://svc.test/webhooks/voice/vapi',
      's3cret',
    );
    expect(body).toMatchObject({
      name: 'A very long agent name that Vapi would r',
      firstMessageMode: 'assistant-waits-for-user',
      artifactPlan: { recordingEnabled: false },
      model: { tools: [{ type: 'function', function: { name: 'book', description: 'Books a visit', parameters: { type: 'object' } }, server: { url: 'https://crm.test/book' } }] },
    });
    expect(body).not.toHaveProperty('voicemailDetection');
  });
});

describe('ProviderHttp', () => {
  const reply = (status: number, body: unknown = {}) => new Response(JSON.stringify(body), { status });
  const http = (fetchFn: jest.Mock) => new ProviderHttp('stub', { retryDelaysMs: [1, 1], timeoutMs: 1000, fetch: fetchFn as unknown as typeof fetch });

  it('retries a 5xx and a 429, and returns the answer that follows', async () => {
    const fetchFn = jest.fn().mockResolvedValueOnce(reply(503)).mockResolvedValueOnce(reply(429)).mockResolvedValueOnce(reply(201, { id: 'x' }));
    await expect(http(fetchFn).request('POST', 'http://stub.test/call', { headers: {} })).resolves.toEqual({ status: 201, json: { id: 'x' } });
    expect(fetchFn).toHaveBeenCalledTimes(3);
  });

  it('gives up after its bounded retries: provider_error with the last status', async () => {
    const fetchFn = jest.fn().mockImplementation(async () => reply(500));
    const error = await http(fetchFn).request('GET', 'http://stub.test/call/1', { headers: { Authorization: 'Bearer secret-key' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'provider_error', status: 502, options: { upstreamStatus: 500 } });
    expect((error as Error).message).not.toContain('secret-key');
    expect(fetchFn).toHaveBeenCalledTimes(3);
  });

  it('an unreachable provider is retried too, then provider_error without an upstream status', async () => {
    const fetchFn = jest.fn().mockRejectedValue(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
    await expect(http(fetchFn).request('GET', 'http://stub.test/x', { headers: {} })).rejects.toMatchObject({ code: 'provider_error', options: { upstreamStatus: undefined } });
    expect(fetchFn).toHaveBeenCalledTimes(3);
  });

  it('a 4xx is the provider\'s answer: returned at once, not retried', async () => {
    const fetchFn = jest.fn().mockResolvedValue(reply(400, { code: 21211 }));
    await expect(http(fetchFn).request('POST', 'http://stub.test/x', { headers: {} })).resolves.toEqual({ status: 400, json: { code: 21211 } });
    expect(fetchFn).toHaveBeenCalledTimes(1);
  });
});
