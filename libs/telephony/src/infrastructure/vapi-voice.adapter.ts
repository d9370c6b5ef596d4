import { timingSafeEqual } from 'node:crypto';
import { AppError } from '@outreach/core';
import { CarrierAccount, CarrierCallRequest, CarrierVoiceAdapter, VoiceAgentSpec, VoiceCallRoute } from '../application/carrier-accounts';
import { CallOutcome, PlacedCall, VoiceCallEvent, VoiceCallResult, VoiceCallStatus, WebSession, WebSessionRequest } from '../application/voice-provider.port';
import { WebhookNotAuthentic, WebhookRequest } from '../application/voice-webhooks';
import { DEFAULT_PROVIDER_HTTP, obj, ProviderHttp, ProviderHttpOptions, ProviderResponse, providerRejected, str } from './provider-http';

export const VAPI_SECRET_HEADER = 'x-vapi-secret';
export const VAPI_DEFAULT_BASE_URL = 'https://api.vapi.ai';
/** The language model an assistant runs on: our agents do not choose one (decisions.md 27.4). */
export const VAPI_MODEL = { provider: 'openai', model: 'gpt-4o' } as const;

/**
 * How a Vapi call ended, from its `endedReason` (decisions.md 27.2): customer-did-not-answer →
 * no_answer, customer-busy → busy, voicemail → voicemail, assistant-forwarded-call → transferred,
 * any *error* or *failed* reason (pipeline-error-…, twilio-failed-to-connect-call, …) →
 * carrier_failure, anything else (customer-ended-call, assistant-ended-call, silence-timed-out,
 * exceeded-max-duration…) → completed.
 */
export function vapiOutcome(endedReason: string | null): CallOutcome {
  const reason = endedReason ?? '';
  if (reason === 'customer-did-not-answer') return 'no_answer';
  if (reason === 'customer-busy') return 'busy';
  if (reason === 'voicemail') return 'voicemail';
  if (reason === 'assistant-forwarded-call') return 'transferred';
  if (/error|failed/.test(reason)) return 'carrier_failure';
  return 'completed';
}

const LIVE = new Set(['scheduled', 'queued', 'ringing', 'in-progress', 'forwarding']);

const date = (value: unknown): Date | null => {
  const d = typeof value === 'string' || typeof value === 'number' ? new Date(value) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
};

/**
 * Vapi as a voice-AI platform (decisions.md 27.2): assistants provisioned from our agents (POST /
 * PATCH /assistant), numbers imported (POST /phone-number), calls placed with POST /call
 * ({assistantId, phoneNumberId, customer: {number}, metadata: {callId}}) and read with GET
 * /call/{id}; all with the private key as a Bearer token. Its server messages (status-update,
 * end-of-call-report) are POSTed to `<PUBLIC_BASE_URL>/webhooks/voice/vapi` with the carrier's
 * shared secret in `x-vapi-secret`.
 */
export class VapiVoiceAdapter extends CarrierVoiceAdapter {
  readonly name = 'vapi' as const;
  readonly needsNumberSync = true;
  readonly needsAgent = true;
  private readonly http: ProviderHttp;

  constructor(http: ProviderHttpOptions = DEFAULT_PROVIDER_HTTP) {
    super();
    this.http = new ProviderHttp('vapi', http);
  }

  async placeCall(account: CarrierAccount, request: CarrierCallRequest): Promise<PlacedCall> {
    const response = await this.send(account, 'POST', '/call', {
      assistantId: request.providerAgentId,
      phoneNumberId: request.providerNumberId,
      customer: { number: request.to },
      assistantOverrides: { variableValues: request.variables, maxDurationSeconds: request.maxDurationSecs },
      metadata: { callId: request.callId, workspaceId: request.workspaceId },
    });
    if (response.status === 200 || response.status === 201) {
      const id = str(response.json?.id);
      if (!id) throw new AppError('provider_error', { message: 'vapi accepted the call without an id', upstreamStatus: response.status });
      return { providerCallId: id };
    }
    const message = vapiMessage(response);
    if (response.status === 404 && /assistant/i.test(message)) {
      throw new AppError('agent_not_provisioned', { message: `vapi does not know the agent's assistant: ${message}` });
    }
    if (response.status === 404) {
      throw new AppError('phone_number_released_upstream', { message: `vapi no longer has the number ${request.from}: ${message}` });
    }
    if (response.status === 400 && /customer/i.test(message)) throw new AppError('invalid_phone', { message: `vapi cannot call ${request.to}: ${message}` });
    throw providerRejected('vapi', response, message);
  }

  async lookupCall(account: CarrierAccount, route: VoiceCallRoute): Promise<VoiceCallStatus> {
    if (!route.providerCallId) return { state: 'unknown' };
    const response = await this.send(account, 'GET', `/call/${encodeURIComponent(route.providerCallId)}`);
    if (response.status === 404) return { state: 'unknown' };
    if (response.status !== 200 || !response.json) throw providerRejected('vapi', response, vapiMessage(response));
    const call = response.json;
    if (LIVE.has(str(call.status) ?? '')) return { state: 'in_progress' };
    const artifact = obj(call.artifact);
    return {
      state: 'ended',
      result: this.result(route.providerCallId, {
        endedReason: str(call.endedReason),
        startedAt: date(call.startedAt),
        endedAt: date(call.endedAt),
        durationMs: null,
        transcript: str(artifact?.transcript) ?? str(call.transcript),
        recordingUrl: str(artifact?.recordingUrl) ?? str(call.recordingUrl),
        analysis: obj(call.analysis),
      }),
    };
  }

  webhookCall(request: WebhookRequest): { callId: string | null; providerCallId: string | null } {
    const call = obj(obj(parse(request.rawBody)?.message)?.call);
    return { callId: str(obj(call?.metadata)?.callId), providerCallId: str(call?.id) };
  }

  readWebhook(account: CarrierAccount, route: VoiceCallRoute, request: WebhookRequest): VoiceCallEvent[] {
    const given = Buffer.from(request.headers[VAPI_SECRET_HEADER] ?? '');
    const secret = Buffer.from(account.credentials.serverSecret ?? '');
    if (secret.length === 0 || given.length !== secret.length || !timingSafeEqual(given, secret)) throw new WebhookNotAuthentic('x-vapi-secret does not match');
    const message = obj(parse(request.rawBody)?.message);
    const call = obj(message?.call);
    const id = str(call?.id);
    if (!message || !id || (route.providerCallId && route.providerCallId !== id)) throw new WebhookNotAuthentic('the message is not about this call');
    const at = date(message.timestamp) ?? new Date();
    const type = str(message.type);
    const base = { provider: this.name, callId: route.callId, providerCallId: id, at };
    if (type === 'status-update') {
      const status = str(message.status);
      // `ended` is left to the end-of-call-report, which carries the transcript (the ending is written once).
      if (status === 'ringing') return [{ ...base, type: 'ringing', eventId: `${id}:status-update:ringing` }];
      if (status === 'in-progress') return [{ ...base, type: 'answered', eventId: `${id}:status-update:in-progress` }];
      return [];
    }
    if (type !== 'end-of-call-report') return [];
    const artifact = obj(message.artifact);
    const durationMs = typeof message.durationMs === 'number' ? message.durationMs : typeof message.durationSeconds === 'number' ? message.durationSeconds * 1000 : null;
    const result = this.result(id, {
      endedReason: str(message.endedReason) ?? str(call?.endedReason),
      startedAt: date(message.startedAt) ?? date(call?.startedAt),
      endedAt: date(message.endedAt) ?? date(call?.endedAt) ?? at,
      durationMs,
      transcript: str(artifact?.transcript) ?? str(message.transcript),
      recordingUrl: str(artifact?.recordingUrl) ?? str(message.recordingUrl),
      analysis: obj(message.analysis) ?? obj(call?.analysis),
    });
    return [{ ...base, type: 'ended', eventId: `${id}:end-of-call-report`, result }];
  }

  /**
   * Vapi has web calls (its Web SDK with the public key), but this adapter holds only the private
   * key and does not create them yet: 501 web_session_not_supported (decisions.md 22.6).
   */
  override startWebSession(account: CarrierAccount, request: WebSessionRequest): Promise<WebSession> {
    return Promise.reject(new AppError('web_session_not_supported', { message: `web sessions through vapi (carrier ${account.carrier}) are not offered yet (agent ${request.agentId})` }));
  }

  override async importNumber(account: CarrierAccount, e164: string): Promise<string> {
    const { twilioAccountSid, twilioAuthToken, credentialId } = account.credentials;
    const body = twilioAccountSid
      ? { provider: 'twilio', number: e164, twilioAccountSid, twilioAuthToken }
      : { provider: 'byo-phone-number', number: e164, numberE164CheckEnabled: true, ...(credentialId ? { credentialId } : {}) };
    const response = await this.send(account, 'POST', '/phone-number', { ...body, name: e164 });
    const id = str(response.json?.id);
    if ((response.status === 200 || response.status === 201) && id) return id;
    throw providerRejected('vapi', response, vapiMessage(response));
  }

  override async provisionAgent(account: CarrierAccount, spec: VoiceAgentSpec, existingId: string | null, serverUrl: string): Promise<string> {
    const body = vapiAssistant(spec, serverUrl, account.credentials.serverSecret ?? '');
    if (existingId) {
      const updated = await this.send(account, 'PATCH', `/assistant/${encodeURIComponent(existingId)}`, body);
      if (updated.status === 200) return existingId;
      if (updated.status !== 404) throw providerRejected('vapi', updated, vapiMessage(updated));
      // Deleted at Vapi meanwhile: created again below.
    }
    const created = await this.send(account, 'POST', '/assistant', body);
    const id = str(created.json?.id);
    if ((created.status === 200 || created.status === 201) && id) return id;
    throw providerRejected('vapi', created, vapiMessage(created));
  }

  private result(
    providerCallId: string,
    ended: {
      endedReason: string | null;
      startedAt: Date | null;
      endedAt: Date | null;
      durationMs: number | null;
      transcript: string | null;
      recordingUrl: string | null;
      analysis: Record<string, unknown> | null;
    },
  ): VoiceCallResult {
    const outcome = vapiOutcome(ended.endedReason);
    const answered = outcome === 'completed' || outcome === 'voicemail' || outcome === 'transferred';
    const endedAt = ended.endedAt ?? new Date();
    const spanMs = ended.startedAt ? Math.max(0, endedAt.getTime() - ended.startedAt.getTime()) : 0;
    return {
      outcome,
      providerDisposition: ended.endedReason ?? 'ended',
      providerCallId,
      answeredAt: answered ? (ended.startedAt ?? endedAt) : null,
      endedAt,
      durationMs: answered ? Math.max(0, Math.round(ended.durationMs ?? spanMs)) : 0,
      transcript: answered ? ended.transcript : null,
      recordingUrl: answered ? ended.recordingUrl : null,
      // Vapi's own post-call analysis (summary, successEvaluation, structuredData), kept as sent.
      providerAnalysis: answered ? ended.analysis : null,
    };
  }

  private send(account: CarrierAccount, method: string, path: string, body?: unknown): Promise<ProviderResponse> {
    return this.http.request(method, `${account.baseUrl}${path}`, {
      headers: { Authorization: `Bearer ${account.credentials.apiKey ?? ''}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
}

/** The assistant Vapi keeps for one of our agents (decisions.md 27.4). */
export function vapiAssistant(spec: VoiceAgentSpec, serverUrl: string, serverSecret: string): Record<string, unknown> {
  const tools: Record<string, unknown>[] = [];
  if (spec.transfer) {
    tools.push({ type: 'transferCall', destinations: [{ type: 'number', number: spec.transfer.number, ...(spec.transfer.message ? { message: spec.transfer.message } : {}) }] });
  }
  if (spec.endCall.enabled) tools.push({ type: 'endCall' });
  for (const f of spec.functions) tools.push({ type: 'function', function: { name: f.name, description: f.description, parameters: f.parameters }, server: { url: f.url } });
  return {
    name: spec.name.slice(0, 40),
    ...(spec.greeting ? { firstMessage: spec.greeting } : { firstMessageMode: 'assistant-waits-for-user' }),
    model: { ...VAPI_MODEL, messages: [{ role: 'system', content: spec.prompt }], tools },
    voice: { provider: spec.voice.provider, voiceId: spec.voice.id },
    maxDurationSeconds: spec.maxCallDurationSecs,
    ...(spec.endCall.message ? { endCallMessage: spec.endCall.message } : {}),
    ...(spec.voicemail.detection ? { voicemailDetection: { provider: 'vapi' } } : {}),
    ...(spec.voicemail.message ? { voicemailMessage: spec.voicemail.message } : {}),
    artifactPlan: { recordingEnabled: spec.enableRecording },
    server: { url: serverUrl, secret: serverSecret },
    serverMessages: ['status-update', 'end-of-call-report'],
    metadata: { agentId: spec.agentId, workspaceId: spec.workspaceId },
  };
}

function vapiMessage(response: ProviderResponse): string {
  const message = response.json?.message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? response.json?.error ?? 'no message');
}

function parse(body: Buffer): Record<string, unknown> | null {
  try {
    return obj(JSON.parse(body.toString('utf8')));
  } catch {
    return null;
  }
}
