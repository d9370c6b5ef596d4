import { createHmac, timingSafeEqual } from 'node:crypto';
import { fromWire, toWire, VoiceWebhookReader, WebhookNotAuthentic, WebhookRequest } from '../application/voice-webhooks';
import type { IncomingCall, VoiceCallEvent } from '../application/voice-provider.port';

/** The sandbox's signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
/** A signed webhook older (or newer) than this is refused: a captured request cannot be replayed later. */
export const SANDBOX_SIGNATURE_TOLERANCE_SECS = 300;

const mac = (secret: string, t: number, body: Buffer | string) => createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');

/** The body and headers of the sandbox's webhook for `event`, signed at `now`. */
export function signSandboxWebhook(secret: string, event: VoiceCallEvent, now: Date): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(toWire(event));
  const t = Math.floor(now.getTime() / 1000);
  return { body, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: `t=${t},v1=${mac(secret, t, body)}` } };
}

/** The sandbox's offer of an inbound call as JSON (decisions.md 36.3). */
export interface SandboxIncomingWire {
  type: 'incoming';
  provider: 'sandbox';
  eventId: string;
  providerCallId: string;
  from: string;
  to: string;
  at: string;
}

/** The body and headers of the sandbox's webhook offering an inbound call, signed at `now` (the CLI's call:simulate-inbound sends it). */
export function signSandboxIncoming(secret: string, incoming: Omit<IncomingCall, 'provider'>, now: Date): { body: string; headers: Record<string, string> } {
  const wire: SandboxIncomingWire = { type: 'incoming', provider: 'sandbox', eventId: incoming.eventId, providerCallId: incoming.providerCallId, from: incoming.from, to: incoming.to, at: incoming.at.toISOString() };
  const body = JSON.stringify(wire);
  const t = Math.floor(now.getTime() / 1000);
  return { body, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: `t=${t},v1=${mac(secret, t, body)}` } };
}

/** Reads the sandbox provider's webhooks: one event (or one inbound call) per request, signed with SANDBOX_VOICE_WEBHOOK_SECRET. */
export class SandboxVoiceWebhookReader extends VoiceWebhookReader {
  readonly provider = 'sandbox';

  constructor(private readonly secret: string) {
    super();
  }

  override async readIncoming(request: WebhookRequest, now: Date): Promise<IncomingCall | null> {
    this.verify(request, now);
    let wire: Partial<SandboxIncomingWire> | null;
    try {
      wire = JSON.parse(request.rawBody.toString('utf8')) as Partial<SandboxIncomingWire> | null;
    } catch (error) {
      throw new WebhookNotAuthentic(`not a sandbox event: ${(error as Error).message}`);
    }
    if (!wire || wire.type !== 'incoming') return null;
    const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    const at = new Date(text(wire.at) ?? '');
    const [eventId, providerCallId, from, to] = [text(wire.eventId), text(wire.providerCallId), text(wire.from), text(wire.to)];
    if (!eventId || !providerCallId || !from || !to || Number.isNaN(at.getTime()) || wire.provider !== this.provider) {
      throw new WebhookNotAuthentic('an incoming call needs provider sandbox, eventId, providerCallId, from, to and at');
    }
    return { provider: this.provider, eventId, providerCallId, from, to, at };
  }

  async read(request: WebhookRequest, now: Date): Promise<VoiceCallEvent[]> {
    this.verify(request, now);
    const { rawBody } = request;
    let event: VoiceCallEvent;
    try {
      event = fromWire(JSON.parse(rawBody.toString('utf8')));
    } catch (error) {
      throw new WebhookNotAuthentic(`not a sandbox event: ${(error as Error).message}`);
    }
    if (event.provider !== this.provider) throw new WebhookNotAuthentic(`an event of ${event.provider} sent to the sandbox route`);
    return [event];
  }

  /** The signature over the raw body, fresh (SANDBOX_SIGNATURE_TOLERANCE_SECS), or WebhookNotAuthentic. */
  private verify(request: WebhookRequest, now: Date): void {
    const { headers, rawBody } = request;
    const header = headers[SANDBOX_SIGNATURE_HEADER] ?? '';
    const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
    const t = Number(parts.t);
    if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) throw new WebhookNotAuthentic(`missing or malformed ${SANDBOX_SIGNATURE_HEADER} header`);
    if (Math.abs(now.getTime() / 1000 - t) > SANDBOX_SIGNATURE_TOLERANCE_SECS) throw new WebhookNotAuthentic('signature timestamp outside the tolerance');
    const expected = Buffer.from(mac(this.secret, t, rawBody), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'))) throw new WebhookNotAuthentic('signature does not match');
  }
}
