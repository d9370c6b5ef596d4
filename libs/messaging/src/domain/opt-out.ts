/**
 * Opt-outs (decisions.md section 30): per workspace + channel + address. A WhatsApp reply that is one of the
 * keywords (trimmed, any case) opts the sender out; for email, a complaint or the List-Unsubscribe link.
 */
export const MESSAGE_CHANNELS = ['WHATSAPP', 'EMAIL'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;

export function isOptOutKeyword(text: string): boolean {
  return (OPT_OUT_KEYWORDS as readonly string[]).includes(text.trim().toUpperCase());
}

/** The address as opt-outs are keyed: E.164 as is, email addresses in lower case. */
export function optOutAddress(channel: MessageChannel, address: string): string {
  return channel === 'EMAIL' ? address.trim().toLowerCase() : address.trim();
}
