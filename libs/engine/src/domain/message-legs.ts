/**
 * Pure rules of the engine's message legs (decisions.md 33).
 */

/** The day the reply window lasts when no MESSAGE_REPLY rule names one. */
export const DEFAULT_REPLY_WINDOW_DAYS = 1;
const DAY_MS = 86_400_000;

/**
 * The idempotency key of a leg's current send: `leg-<contactId>-<n>`, n being the attemptSeq of the
 * claim that first sent it. A transient refusal's retry (messageTransient counts them) keeps the
 * key, so the SAME message is tried again; an undelivered retry, a restart or a new leg gets a new
 * one. A re-run of the same attempt (its job after a crash, a report, the reaper) finds the message
 * of the key: nothing is sent twice.
 */
export function legMessageKey(contact: { id: string; attemptSeq: number; messageTransient: number }): string {
  return `leg-${contact.id}-${contact.attemptSeq - contact.messageTransient}`;
}

/**
 * The campaign contact a message was sent for, read from the key the engine sent it under: a leg's
 * `leg-<contactId>-<n>` or a remessage's `remessage-<remessageId>-<contactId>` (decisions.md 33.18);
 * null for a key the engine did not write.
 */
export function contactOfMessageKey(key: string | null): string | null {
  if (!key) return null;
  const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
  const match = new RegExp(`^leg-(${uuid})-\\d+$`).exec(key) ?? new RegExp(`^remessage-${uuid}-(${uuid})$`).exec(key);
  return match ? match[1] : null;
}

/**
 * WHATSAPP_THEN_VOICE calls the contacts who have not replied within the window of the campaign's
 * MESSAGE_REPLY outreach rule: its `afterDays` (the contract's only duration on a rule), counted from
 * the message's first send. Without such a rule: DEFAULT_REPLY_WINDOW_DAYS.
 */
export function replyWindowMs(rules: ReadonlyArray<{ trigger: string; afterDays: number }>): number {
  const rule = rules.find((r) => r.trigger === 'MESSAGE_REPLY');
  return (rule ? rule.afterDays : DEFAULT_REPLY_WINDOW_DAYS) * DAY_MS;
}

/**
 * whatsappTemplateByMetric (decisions.md 33): `{ "<metric key>": { "<value>": "<template id>" } }`.
 * The first metric (in the mapping's order) whose value in the call's evaluation names a template
 * picks it; null when none does (the outreach template is used).
 */
export function templateForMetric(mapping: Readonly<Record<string, unknown>>, evaluation: Readonly<Record<string, unknown>> | null): string | null {
  if (!evaluation) return null;
  for (const [metric, byValue] of Object.entries(mapping)) {
    const value = evaluation[metric];
    if (typeof value !== 'string' || !byValue || typeof byValue !== 'object') continue;
    const template = (byValue as Record<string, unknown>)[value];
    if (typeof template === 'string' && template.length > 0) return template;
  }
  return null;
}

/** An EMAIL leg's address: the contact's `email` field (any case of the column name), trimmed; null when absent or not an address. */
export function emailAddressOf(fields: Readonly<Record<string, string>>): string | null {
  const key = Object.keys(fields).find((k) => k.trim().toLowerCase() === 'email');
  const value = key ? fields[key].trim() : '';
  return /^[^\s@]+@[^\s@]+$/.test(value) ? value : null;
}
