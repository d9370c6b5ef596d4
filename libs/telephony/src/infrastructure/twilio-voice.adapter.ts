import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@outreach/core';
import { CarrierAccount, CarrierCallRequest, CarrierVoiceAdapter, VoiceCallRoute } from '../application/carrier-accounts';
import { CallOutcome, InboundCallRequest, PlacedCall, VoiceCallEvent, VoiceCallResult, VoiceCallStatus, WebSession, WebSessionRequest, WebhookReply } from '../application/voice-provider.port';
import { WebhookNotAuthentic, WebhookRequest } from '../application/voice-webhooks';
import { DEFAULT_PROVIDER_HTTP, ProviderHttp, ProviderHttpOptions, ProviderResponse, providerRejected, str } from './provider-http';

export const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';
export const TWILIO_DEFAULT_BASE_URL = 'https://api.twilio.com';

/** Twilio errors about our caller id: the number is not (or no longer) the account's (decisions.md 27.3). */
const RELEASED_CALLER_ID = new Set([21210, 21212, 21606]);
/** Twilio errors about the number dialled. */
const BAD_DESTINATION = new Set([21211, 21214, 21217, 13224]);
/** Twilio's call statuses that are final. */
const FINAL = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

/**
 * `X-Twilio-Signature`: base64 HMAC-SHA1, keyed with the account's auth token, of the full URL
 * Twilio requested followed by every POST parameter's name and value, sorted by name.
 */
export function twilioSignature(authToken: string, fullUrl: string, params: URLSearchParams): string {
  const pairs = [...params.entries()].sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  const data = fullUrl + pairs.map(([k, v]) => k + v).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** How a Twilio call ended, in our words: `AnsweredBy` machine_* / fax → voicemail; canceled is not a carrier failure. */
export function twilioOutcome(status: string, answeredBy: string | null): CallOutcome {
  switch (status) {
    case 'busy':
      return 'busy';
    case 'no-answer':
    case 'canceled':
      return 'no_answer';
    case 'failed':
      return 'carrier_failure';
    default:
      return answeredBy && (answeredBy.startsWith('machine') || answeredBy === 'fax') ? 'voicemail' : 'completed';
  }
}

/** Twilio's dates: RFC 2822 in the REST API and the callbacks' Timestamp. */
const date = (value: unknown): Date | null => {
  const text = str(value);
  const d = text ? new Date(text) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
};

/**
 * Twilio Programmable Voice as a carrier (decisions.md 27.3). Calls: POST
 * /2010-04-01/Accounts/{AccountSid}/Calls.json, form-encoded, basic auth AccountSid:AuthToken, with
 * status callbacks to `<PUBLIC_BASE_URL>/webhooks/voice/twilio?callId=<our id>` for initiated,
 * ringing, answered and completed, and answering-machine detection; the poll GETs
 * Calls/{CallSid}.json. Callbacks are form-encoded and signed (X-Twilio-Signature over the full URL).
 * What the call says is the carrier's `twimlUrl` (Url) when configured, else a short TwiML greeting.
 */
export class TwilioVoiceAdapter extends CarrierVoiceAdapter {
  readonly name = 'twilio' as const;
  readonly needsNumberSync = false;
  readonly needsAgent = false;
  private readonly http: ProviderHttp;

  constructor(
    private readonly publicBaseUrl: string,
    http: ProviderHttpOptions = DEFAULT_PROVIDER_HTTP,
  ) {
    super();
    this.http = new ProviderHttp('twilio', http);
  }

  async placeCall(account: CarrierAccount, request: CarrierCallRequest): Promise<PlacedCall> {
    const form = new URLSearchParams({
      To: request.to,
      From: request.from,
      StatusCallback: `${this.publicBaseUrl}/webhooks/voice/twilio?callId=${encodeURIComponent(request.callId)}`,
      StatusCallbackMethod: 'POST',
      MachineDetection: 'Enable',
      TimeLimit: String(request.maxDurationSecs),
    });
    for (const event of ['initiated', 'ringing', 'answered', 'completed']) form.append('StatusCallbackEvent', event);
    const twimlUrl = account.credentials.twimlUrl;
    if (twimlUrl) form.set('Url', twimlUrl);
    else form.set('Twiml', `<Response><Say>${xml(request.variables.agent_name ? `Hello, this is ${request.variables.agent_name}.` : 'Hello.')}</Say><Pause length="1"/></Response>`);
    const response = await this.http.request('POST', this.url(account, 'Calls.json'), {
      headers: { ...this.auth(account), 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
    });
    if (response.status === 200 || response.status === 201) {
      const sid = str(response.json?.sid);
      if (!sid) throw new AppError('provider_error', { message: 'twilio accepted the call without a sid', upstreamStatus: response.status });
      return { providerCallId: sid };
    }
    throw this.refusal(response, request);
  }

  async lookupCall(account: CarrierAccount, route: VoiceCallRoute): Promise<VoiceCallStatus> {
    if (!route.providerCallId) return { state: 'unknown' };
    const response = await this.http.request('GET', this.url(account, `Calls/${encodeURIComponent(route.providerCallId)}.json`), {
      headers: { ...this.auth(account), Accept: 'application/json' },
    });
    if (response.status === 404) return { state: 'unknown' };
    if (response.status !== 200 || !response.json) throw providerRejected('twilio', response, String(response.json?.message ?? 'unexpected answer'));
    const call = response.json;
    const status = str(call.status) ?? '';
    if (!FINAL.has(status)) return { state: 'in_progress' };
    const outcome = twilioOutcome(status, str(call.answered_by));
    const endedAt = date(call.end_time) ?? new Date();
    const seconds = Number(call.duration ?? 0);
    return {
      state: 'ended',
      result: this.result(route.providerCallId, status, outcome, endedAt, Number.isFinite(seconds) ? seconds : 0, date(call.start_time)),
    };
  }

  webhookCall(request: WebhookRequest): { callId: string | null; providerCallId: string | null } {
    const query = new URL(request.url, 'http://local').searchParams;
    const form = new URLSearchParams(request.rawBody.toString('utf8'));
    return { callId: query.get('callId'), providerCallId: form.get('CallSid') };
  }

  /**
   * The number's Voice URL request (decisions.md 36.3): Twilio asks `<PUBLIC_BASE_URL>/webhooks/voice/twilio`
   * what to do with a call to one of the account's numbers — form-encoded, `Direction=inbound`,
   * `CallStatus=ringing`, `From`, `To`, `CallSid`, `AccountSid`, signed like every callback. Status
   * callbacks of inbound calls carry another CallStatus and are read as events.
   */
  override incomingCall(request: WebhookRequest): { providerCallId: string; from: string; to: string } | null {
    if (new URL(request.url, 'http://local').searchParams.get('callId')) return null;
    const form = new URLSearchParams(request.rawBody.toString('utf8'));
    const [sid, from, to] = [form.get('CallSid'), form.get('From'), form.get('To')];
    if (form.get('Direction') !== 'inbound' || form.get('CallStatus') !== 'ringing' || !sid || !to) return null;
    return { providerCallId: sid, from: from ?? '', to };
  }

  override verifyIncoming(account: CarrierAccount, request: WebhookRequest, publicBaseUrl: string): void {
    const form = this.verified(account, request, publicBaseUrl);
    if (form.get('AccountSid') !== account.credentials.accountSid) throw new WebhookNotAuthentic('AccountSid is not the carrier account');
  }

  /** TwiML: the carrier's `twimlUrl` (a voice-AI bridge) takes the call, else a short greeting (as for placed calls, decisions.md 27.3). */
  override answerIncoming(account: CarrierAccount, request: InboundCallRequest): WebhookReply {
    const twimlUrl = account.credentials.twimlUrl;
    const body = twimlUrl
      ? `<?xml version="1.0" encoding="UTF-8"?><Response><Redirect method="POST">${xml(`${twimlUrl}${twimlUrl.includes('?') ? '&' : '?'}callId=${encodeURIComponent(request.callId)}`)}</Redirect></Response>`
      : `<?xml version="1.0" encoding="UTF-8"?><Response><Say>${xml(request.variables.agent_name ? `Hello, this is ${request.variables.agent_name}.` : 'Hello.')}</Say><Pause length="1"/></Response>`;
    return { contentType: 'text/xml', body };
  }

  /** Twilio hosts no agent to talk to from a browser (its Voice SDK needs an app of ours): 501 web_session_not_supported (decisions.md 22.6). */
  override startWebSession(account: CarrierAccount, request: WebSessionRequest): Promise<WebSession> {
    return Promise.reject(new AppError('web_session_not_supported', { message: `twilio (carrier ${account.carrier}) hosts no agent for a web session (agent ${request.agentId})` }));
  }

  override declineIncoming(): WebhookReply {
    return {
      contentType: 'text/xml',
      body: '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Sorry, nobody can take your call right now. Please try again later. Goodbye.</Say><Hangup/></Response>',
    };
  }

  readWebhook(account: CarrierAccount, route: VoiceCallRoute, request: WebhookRequest, publicBaseUrl: string): VoiceCallEvent[] {
    const form = this.verified(account, request, publicBaseUrl);
    const sid = form.get('CallSid');
    if (!sid || (route.providerCallId && route.providerCallId !== sid)) throw new WebhookNotAuthentic('CallSid is not the call of this callback');
    if (form.get('AccountSid') && form.get('AccountSid') !== account.credentials.accountSid) throw new WebhookNotAuthentic('AccountSid is not the carrier account');
    const status = form.get('CallStatus') ?? '';
    const at = date(form.get('Timestamp')) ?? new Date();
    const base = { provider: this.name, eventId: `${sid}:${status}`, callId: route.callId, providerCallId: sid, at };
    if (status === 'ringing') return [{ ...base, type: 'ringing' }];
    if (status === 'in-progress') return [{ ...base, type: 'answered' }];
    if (!FINAL.has(status)) return [];
    const seconds = Number(form.get('CallDuration') ?? 0);
    const outcome = twilioOutcome(status, form.get('AnsweredBy'));
    const result = this.result(sid, status, outcome, at, Number.isFinite(seconds) ? seconds : 0, null);
    return [{ ...base, type: 'ended', result: { ...result, recordingUrl: form.get('RecordingUrl') ?? null } }];
  }

  /** The form of a request whose X-Twilio-Signature verifies for the account (WebhookNotAuthentic otherwise). */
  private verified(account: CarrierAccount, request: WebhookRequest, publicBaseUrl: string): URLSearchParams {
    const form = new URLSearchParams(request.rawBody.toString('utf8'));
    const given = request.headers[TWILIO_SIGNATURE_HEADER] ?? '';
    const expected = Buffer.from(twilioSignature(account.credentials.authToken ?? '', publicBaseUrl + request.url, form));
    if (given === '' || !safeEqual(expected, Buffer.from(given))) throw new WebhookNotAuthentic('X-Twilio-Signature does not match');
    return form;
  }

  private result(sid: string, status: string, outcome: CallOutcome, endedAt: Date, seconds: number, startedAt: Date | null): VoiceCallResult {
    const answered = outcome === 'completed' || outcome === 'voicemail' || outcome === 'transferred';
    const durationMs = answered ? Math.max(0, Math.round(seconds * 1000)) : 0;
    return {
      outcome,
      providerDisposition: outcome === 'voicemail' ? 'machine' : status,
      providerCallId: sid,
      answeredAt: answered ? (startedAt ?? new Date(endedAt.getTime() - durationMs)) : null,
      endedAt,
      durationMs,
      transcript: null,
      recordingUrl: null,
    };
  }

  private refusal(response: ProviderResponse, request: CarrierCallRequest): AppError {
    const code = Number(response.json?.code);
    const message = String(response.json?.message ?? 'no message');
    if (RELEASED_CALLER_ID.has(code)) {
      return new AppError('phone_number_released_upstream', { message: `twilio does not let ${request.from} call (${code}): ${message}` });
    }
    if (BAD_DESTINATION.has(code)) return new AppError('invalid_phone', { message: `twilio cannot call ${request.to} (${code}): ${message}` });
    return providerRejected('twilio', response, `${Number.isFinite(code) ? `${code} ` : ''}${message}`);
  }

  private url(account: CarrierAccount, path: string): string {
    return `${account.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(account.credentials.accountSid ?? '')}/${path}`;
  }

  private auth(account: CarrierAccount): Record<string, string> {
    const basic = Buffer.from(`${account.credentials.accountSid ?? ''}:${account.credentials.authToken ?? ''}`).toString('base64');
    return { Authorization: `Basic ${basic}` };
  }
}

function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function xml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}
