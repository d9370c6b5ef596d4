import { createHmac, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import twilioFixtures from '../fixtures/voice-providers/twilio.json';
import vapiFixtures from '../fixtures/voice-providers/vapi.json';

/*
 * Local stand-ins for the real voice providers (decisions.md 16.12, 27): node http servers on
 * 127.0.0.1 and a random port that answer with the recorded shapes (test/fixtures/voice-providers),
 * check the credentials the way the provider does, can be scripted to fail, and send signed
 * callbacks to our webhook route. Their signing is written here from the providers' documentation,
 * independently of the adapters, so a test proves the two agree.
 */

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Reply = { status: number; body: unknown };

abstract class ProviderStub {
  readonly requests: StubRequest[] = [];
  /** Answers the next requests with these (status, body), before the normal handling: e.g. three 503s. */
  readonly script: Reply[] = [];
  private server: Server | null = null;
  baseUrl = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.receive(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Requests to paths matching `pattern`. */
  to(method: string, pattern: RegExp): StubRequest[] {
    return this.requests.filter((r) => r.method === method && pattern.test(r.path));
  }

  protected abstract handle(req: StubRequest): Reply;

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    this.requests.push(request);
    const reply = this.script.shift() ?? this.handle(request);
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.body));
  }
}

/** POSTs a callback to our app: the URL the provider was given is public; the bytes go to the local app. */
async function deliver(publicUrl: string, localBase: string, headers: Record<string, string>, body: string): Promise<number> {
  const url = new URL(publicUrl);
  const response = await fetch(`${localBase}${url.pathname}${url.search}`, { method: 'POST', headers: { ...headers, connection: 'close' }, body });
  await response.text();
  return response.status;
}

export interface TwilioStubCall {
  sid: string;
  params: URLSearchParams;
  status: string;
  duration: string | null;
  answeredBy: string | null;
  sequence: number;
}

/** Twilio's REST API for one account: Calls.json (create, fetch), basic auth, error bodies with Twilio's codes. */
export class TwilioStub extends ProviderStub {
  readonly accountSid = `AC${randomBytes(16).toString('hex')}`;
  readonly authToken = randomBytes(16).toString('hex');
  readonly calls = new Map<string, TwilioStubCall>();
  /** Twilio error bodies by destination number (e.g. 21211 for an invalid To). */
  readonly errorsByTo = new Map<string, Record<string, unknown>>();

  protected handle(req: StubRequest): Reply {
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return { status: 401, body: twilioFixtures.errors.authenticate };
    const base = `/2010-04-01/Accounts/${this.accountSid}/Calls`;
    if (req.method === 'POST' && req.path === `${base}.json`) {
      const params = new URLSearchParams(req.body);
      const error = this.errorsByTo.get(params.get('To') ?? '');
      if (error) return { status: Number(error.status), body: error };
      const sid = `CA${randomBytes(16).toString('hex')}`;
      this.calls.set(sid, { sid, params, status: 'queued', duration: null, answeredBy: null, sequence: 0 });
      return { status: 201, body: { ...twilioFixtures.callCreated, sid, account_sid: this.accountSid, to: params.get('To'), from: params.get('From') } };
    }
    const fetched = new RegExp(`^${base}/(CA[0-9a-f]+)\\.json$`).exec(req.path);
    if (req.method === 'GET' && fetched) {
      const call = this.calls.get(fetched[1]);
      if (!call) return { status: 404, body: twilioFixtures.errors.notFound };
      const final = ['completed', 'busy', 'no-answer', 'failed', 'canceled'].includes(call.status);
      return {
        status: 200,
        body: {
          ...twilioFixtures.callCompleted,
          sid: call.sid,
          status: call.status,
          duration: final ? (call.duration ?? '0') : null,
          answered_by: call.answeredBy,
          end_time: final ? new Date().toUTCString() : null,
        },
      };
    }
    return { status: 404, body: twilioFixtures.errors.notFound };
  }

  /** The one call placed to `to`. */
  callTo(to: string): TwilioStubCall {
    const call = [...this.calls.values()].find((c) => c.params.get('To') === to);
    if (!call) throw new Error(`no call to ${to}`);
    return call;
  }

  /** Twilio's documented signature of a callback: base64 HMAC-SHA1 of the URL and the sorted name+value pairs. */
  sign(url: string, params: URLSearchParams, token = this.authToken): string {
    const sorted = [...params.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return createHmac('sha1', token).update(url + sorted.map(([k, v]) => `${k}${v}`).join('')).digest('base64');
  }

  /** The status callback Twilio would send for `call` moving to `status` (the call's record moves too). */
  callback(call: TwilioStubCall, status: string, extra: Record<string, string> = {}): { url: string; params: URLSearchParams } {
    call.status = status;
    if (extra.CallDuration) call.duration = extra.CallDuration;
    if (extra.AnsweredBy) call.answeredBy = extra.AnsweredBy;
    const f = twilioFixtures.statusCallback;
    const params = new URLSearchParams({
      AccountSid: this.accountSid,
      ApiVersion: f.ApiVersion,
      CallSid: call.sid,
      CallStatus: status,
      Called: call.params.get('To')!,
      Caller: call.params.get('From')!,
      Direction: f.Direction,
      From: call.params.get('From')!,
      To: call.params.get('To')!,
      SequenceNumber: String(call.sequence++),
      Timestamp: new Date().toUTCString(),
      CallbackSource: f.CallbackSource,
      ...extra,
    });
    return { url: call.params.get('StatusCallback')!, params };
  }

  /** Sends a callback to our app at `localBase`, signed (or with the signature given). */
  send(localBase: string, cb: { url: string; params: URLSearchParams }, signature = this.sign(cb.url, cb.params)): Promise<number> {
    return deliver(cb.url, localBase, { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature }, cb.params.toString());
  }
}

/** Vapi's REST API for one org: assistants, phone numbers, calls, Bearer private key, Nest-style error bodies. */
export class VapiStub extends ProviderStub {
  readonly apiKey = `vapi-${randomBytes(12).toString('hex')}`;
  readonly assistants = new Map<string, Record<string, unknown>>();
  readonly numbers = new Map<string, Record<string, unknown>>();
  readonly calls = new Map<string, Record<string, unknown>>();

  protected handle(req: StubRequest): Reply {
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) return { status: 401, body: vapiFixtures.errors.unauthorized };
    const body = req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {};
    if (req.method === 'POST' && req.path === '/assistant') {
      const id = `asst_${randomBytes(8).toString('hex')}`;
      this.assistants.set(id, body);
      return { status: 201, body: { ...vapiFixtures.assistantCreated, ...body, id } };
    }
    const assistant = /^\/assistant\/([\w-]+)$/.exec(req.path);
    if (req.method === 'PATCH' && assistant) {
      if (!this.assistants.has(assistant[1])) return { status: 404, body: vapiFixtures.errors.assistantNotFound };
      this.assistants.set(assistant[1], { ...this.assistants.get(assistant[1]), ...body });
      return { status: 200, body: { ...vapiFixtures.assistantCreated, ...body, id: assistant[1] } };
    }
    if (req.method === 'POST' && req.path === '/phone-number') {
      const id = `pn_${randomBytes(8).toString('hex')}`;
      this.numbers.set(id, body);
      return { status: 201, body: { ...vapiFixtures.phoneNumberCreated, ...body, id } };
    }
    if (req.method === 'POST' && req.path === '/call') {
      if (!this.numbers.has(String(body.phoneNumberId))) return { status: 404, body: vapiFixtures.errors.phoneNumberNotFound };
      if (!this.assistants.has(String(body.assistantId))) return { status: 404, body: vapiFixtures.errors.assistantNotFound };
      const id = `call_${randomBytes(8).toString('hex')}`;
      const call = { ...vapiFixtures.callCreated, ...body, id, status: 'queued' };
      this.calls.set(id, call);
      return { status: 201, body: call };
    }
    const call = /^\/call\/([\w-]+)$/.exec(req.path);
    if (req.method === 'GET' && call) {
      const found = this.calls.get(call[1]);
      return found ? { status: 200, body: found } : { status: 404, body: { message: 'Not Found', statusCode: 404 } };
    }
    return { status: 404, body: { message: `Cannot ${req.method} ${req.path}`, statusCode: 404 } };
  }

  /** The one call placed to `to`. */
  callTo(to: string): Record<string, unknown> & { id: string } {
    const call = [...this.calls.values()].find((c) => (c.customer as { number: string }).number === to);
    if (!call) throw new Error(`no call to ${to}`);
    return call as Record<string, unknown> & { id: string };
  }

  /** A server message about `call` as Vapi posts it (the call's record moves with an end-of-call-report). */
  message(call: Record<string, unknown> & { id: string }, message: Record<string, unknown>): Record<string, unknown> {
    if (message.type === 'end-of-call-report') Object.assign(call, { status: 'ended', endedReason: message.endedReason, startedAt: message.startedAt, endedAt: message.endedAt, artifact: message.artifact, analysis: message.analysis });
    if (message.type === 'status-update') call.status = message.status;
    return { message: { timestamp: Date.now(), ...message, call: { id: call.id, metadata: call.metadata, status: call.status } } };
  }

  /** Sends a server message to the assistant's server URL (public) through our local app, with x-vapi-secret. */
  send(localBase: string, call: Record<string, unknown>, body: Record<string, unknown>, secret: string): Promise<number> {
    const assistant = this.assistants.get(String(call.assistantId))!;
    const server = assistant.server as { url: string };
    return deliver(server.url, localBase, { 'content-type': 'application/json', 'x-vapi-secret': secret }, JSON.stringify(body));
  }
}

export { twilioFixtures, vapiFixtures };
