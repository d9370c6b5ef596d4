import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a provider's webhook reports, as read from its body (decisions.md 30.14). JSON-able (the
 * outbox job carries it to the worker): `at` is an ISO timestamp.
 */
export type ProviderReport =
  | {
      type: 'status';
      channel: 'WHATSAPP' | 'EMAIL';
      provider: string;
      eventId: string;
      providerMessageId: string;
      status: 'sent' | 'delivered' | 'read' | 'failed';
      reason?: string;
      /** Our message id when the provider echoes it (Graph's `biz_opaque_callback_data`; an email's Message-ID). */
      ourMessageId?: string;
      at: string;
    }
  | {
      type: 'inbound';
      channel: 'WHATSAPP';
      provider: string;
      eventId: string;
      /** The provider's id of the inbound message itself. */
      providerMessageId: string;
      from: string;
      text: string;
      /** The provider's id of our message it answers, when it says so. */
      inReplyTo: string | null;
      at: string;
    }
  | { type: 'bounce'; channel: 'EMAIL'; provider: string; eventId: string; providerMessageId: string; permanent: boolean; reason: string; ourMessageId?: string; at: string }
  | { type: 'complaint'; channel: 'EMAIL'; provider: string; eventId: string; providerMessageId: string; reason: string; ourMessageId?: string; at: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID as our message id, or nothing: what a provider echoes is not trusted to be one. */
function ourId(value: unknown): { ourMessageId?: string } {
  return typeof value === 'string' && UUID.test(value) ? { ourMessageId: value.toLowerCase() } : {};
}

/** The Message-ID we give an email is `<our message id@from domain>` (decisions.md 30.19). */
export function messageIdOfEmail(providerMessageId: string): { ourMessageId?: string } {
  return ourId(/^<?([^@<>]+)@/.exec(providerMessageId)?.[1]);
}

/** A webhook whose signature does not verify, or whose body cannot be read: nothing of it is used. */
export class MessagingWebhookNotAuthentic extends Error {}

export const HUB_SIGNATURE_HEADER = 'x-hub-signature-256';

/** `sha256=<hex HMAC-SHA256(secret, raw body)>`: the WhatsApp Cloud API's signature, also used by the sandbox and the email webhook. */
export function hubSignature(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Throws MessagingWebhookNotAuthentic unless `header` is the signature of `rawBody` under `secret`. */
export function verifyHubSignature(secret: string, header: string | undefined, rawBody: Buffer): void {
  const match = /^sha256=([0-9a-f]{64})$/i.exec((header ?? '').trim());
  if (!match) throw new MessagingWebhookNotAuthentic(`missing or malformed ${HUB_SIGNATURE_HEADER} header`);
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  if (!timingSafeEqual(expected, Buffer.from(match[1].toLowerCase(), 'hex'))) throw new MessagingWebhookNotAuthentic('signature does not match');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown, name: string): string => {
  if (typeof v !== 'string' || v === '') throw new MessagingWebhookNotAuthentic(`${name} must be a non-empty string`);
  return v;
};
/** Graph timestamps are unix seconds as strings. */
const unixTime = (v: unknown, name: string): string => {
  const seconds = Number(text(v, name));
  if (!Number.isFinite(seconds) || seconds <= 0) throw new MessagingWebhookNotAuthentic(`${name} must be unix seconds`);
  return new Date(seconds * 1000).toISOString();
};

const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

/**
 * Reads a WhatsApp Cloud API webhook body: `{object, entry: [{changes: [{field, value: {statuses,
 * messages}}]}]}`. Statuses become status reports (event id `<wamid>:<status>`), messages become
 * inbound reports (event id: the inbound wamid; text messages and button replies, other types as
 * `[<type>]`). Unknown fields and change kinds are skipped, as Meta asks.
 */
export function readWhatsappWebhook(provider: string, rawBody: Buffer): ProviderReport[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new MessagingWebhookNotAuthentic('the body is not JSON');
  }
  if (!isObject(body) || !Array.isArray(body.entry)) throw new MessagingWebhookNotAuthentic('not a WhatsApp webhook: no entry[]');
  const reports: ProviderReport[] = [];
  for (const entry of body.entry) {
    for (const change of list(isObject(entry) ? entry.changes : undefined)) {
      if (!isObject(change) || !isObject(change.value)) continue;
      const value = change.value;
      for (const s of list(value.statuses)) {
        if (!isObject(s)) continue;
        const status = s.status;
        if (!(STATUSES as readonly unknown[]).includes(status)) continue;
        const id = text(s.id, 'statuses[].id');
        const errors = list(s.errors).filter(isObject);
        const reason = errors.length > 0 ? errors.map((e) => `${String(e.code ?? '')} ${String(e.title ?? e.message ?? '')}`.trim()).join('; ') : undefined;
        reports.push({
          type: 'status',
          channel: 'WHATSAPP',
          provider,
          eventId: `${id}:${String(status)}`,
          providerMessageId: id,
          status: status as (typeof STATUSES)[number],
          ...(reason ? { reason } : {}),
          ...ourId(s.biz_opaque_callback_data),
          at: unixTime(s.timestamp, 'statuses[].timestamp'),
        });
      }
      for (const m of list(value.messages)) {
        if (!isObject(m)) continue;
        const id = text(m.id, 'messages[].id');
        const from = text(m.from, 'messages[].from');
        const body =
          m.type === 'text' && isObject(m.text)
            ? String(m.text.body ?? '')
            : m.type === 'button' && isObject(m.button)
              ? String(m.button.text ?? '')
              : `[${String(m.type ?? 'unknown')}]`;
        reports.push({
          type: 'inbound',
          channel: 'WHATSAPP',
          provider,
          eventId: id,
          providerMessageId: id,
          from: from.startsWith('+') ? from : `+${from}`,
          text: body,
          inReplyTo: isObject(m.context) && typeof m.context.id === 'string' ? m.context.id : null,
          at: unixTime(m.timestamp, 'messages[].timestamp'),
        });
      }
    }
  }
  return reports;
}

/**
 * Reads the email webhook body (decisions.md 30.14; the format is ours, as SMTP has none):
 * `{events: [{id, type: 'bounce'|'complaint'|'delivered', messageId, bounceType?: 'hard'|'soft',
 * reason?, timestamp (ISO)}]}` where `messageId` is the provider's id of our message (its
 * Message-ID). A hard bounce fails the message; a complaint opts the recipient out.
 */
export function readEmailWebhook(provider: string, rawBody: Buffer): ProviderReport[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new MessagingWebhookNotAuthentic('the body is not JSON');
  }
  if (!isObject(body) || !Array.isArray(body.events)) throw new MessagingWebhookNotAuthentic('not an email webhook: no events[]');
  return body.events.map((e): ProviderReport => {
    if (!isObject(e)) throw new MessagingWebhookNotAuthentic('events[] must be objects');
    const eventId = text(e.id, 'events[].id');
    const providerMessageId = text(e.messageId, 'events[].messageId');
    const at = new Date(text(e.timestamp, 'events[].timestamp'));
    if (Number.isNaN(at.getTime())) throw new MessagingWebhookNotAuthentic('events[].timestamp must be ISO-8601');
    const reason = typeof e.reason === 'string' ? e.reason : String(e.type);
    const base = { channel: 'EMAIL' as const, provider, eventId, providerMessageId, ...messageIdOfEmail(providerMessageId), at: at.toISOString() };
    switch (e.type) {
      case 'bounce':
        return { ...base, type: 'bounce', permanent: e.bounceType !== 'soft', reason };
      case 'complaint':
        return { ...base, type: 'complaint', reason };
      case 'delivered':
        return { ...base, type: 'status', status: 'delivered' };
      default:
        throw new MessagingWebhookNotAuthentic('events[].type must be bounce, complaint or delivered');
    }
  });
}
