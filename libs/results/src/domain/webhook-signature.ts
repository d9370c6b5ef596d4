import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64
 * of random bytes; a signature is `v1,` + base64 HMAC-SHA256, keyed with those bytes, over
 * `<webhook-id>.<webhook-timestamp>.<body>`. Several signatures are separated by spaces.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString('base64');
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error('not a webhook secret');
  return Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret still valid (the current one first). */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets.map((s) => signWebhook(s, id, timestampSeconds, body)).join(' ');
}
