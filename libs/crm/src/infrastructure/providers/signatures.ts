import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookNotAuthentic } from '../../application/crm.ports';

export function hmacSha256(secret: string, data: Buffer | string, encoding: 'hex' | 'base64'): string {
  return createHmac('sha256', secret).update(data).digest(encoding);
}

/** Constant-time comparison of a received signature with the expected one; WebhookNotAuthentic otherwise. */
export function assertSignature(received: string | undefined, expected: string, header: string): void {
  if (!received) throw new WebhookNotAuthentic(`no ${header} header`);
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new WebhookNotAuthentic(`${header} does not match`);
}

/** The webhook secret of a connection, or WebhookNotAuthentic when it was connected without one. */
export function webhookSecret(credentials: Readonly<Record<string, string>>, member: string): string {
  const secret = credentials[member];
  if (!secret) throw new WebhookNotAuthentic(`the connection has no webhook secret (credentials.${member})`);
  return secret;
}

export function parseJsonBody(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
