import { createHmac, randomUUID } from 'node:crypto';
import { sandboxRecord } from '@outreach/crm';
import { bearer, TestApp } from '../support/test-app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
type Loose = Record<string, any>;

/** The contract's CRM connection (list item) fields, exactly. */
export const CONNECTION_FIELDS = [
  'connectedAt',
  'deferredEventCount',
  'display',
  'hasWebhookSecret',
  'id',
  'missingScopes',
  'name',
  'providerEmail',
  'slug',
  'status',
  'webhookTopics',
  'webhookUrl',
];

/** A sandbox connection over HTTP (201 expected), with a webhook secret unique to this run. */
export async function connectSandbox(t: TestApp, key: string, webhookSecret = `whsec-${randomUUID()}`): Promise<{ connection: Loose; webhookSecret: string }> {
  const res = await t.http.post('/crm/connections').set(bearer(key)).send({ slug: 'sandbox', credentials: { apiKey: 'valid', webhookSecret } });
  if (res.status !== 201) throw new Error(`connectSandbox: ${res.status} ${JSON.stringify(res.body)}`);
  return { connection: res.body, webhookSecret };
}

/** A sandbox webhook body of the given records, signed as the sandbox CRM signs (hex HMAC-SHA256 of the raw body). */
export function sandboxWebhook(secret: string, records: Array<{ id: string; properties: Record<string, string | null> }>): { body: string; signature: string } {
  const body = JSON.stringify({ records });
  return { body, signature: createHmac('sha256', secret).update(body).digest('hex') };
}

/** Sandbox records i..j as webhook records. */
export function sandboxRecords(from: number, to: number) {
  const out = [];
  for (let i = from; i <= to; i++) out.push(sandboxRecord(i));
  return out;
}

export async function postSandboxWebhook(t: TestApp, connectionId: string, secret: string, records: ReturnType<typeof sandboxRecords>, signature?: string) {
  const signed = sandboxWebhook(secret, records);
  return t.http
    .post(`/crm/webhooks/${connectionId}`)
    .set('content-type', 'application/json')
    .set('x-sandbox-signature', signature ?? signed.signature)
    .send(signed.body);
}

export async function count(t: TestApp, sql: string, params: unknown[] = []): Promise<number> {
  const rows: Array<{ n: number }> = await t.dataSource.query(sql, params);
  return rows[0].n;
}
