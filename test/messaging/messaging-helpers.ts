import { bearer, TestApp } from '../support/test-app';

export type Res = { status: number; body: Record<string, unknown> };

/** A random US number whose LAST digit is `last` (the sandbox decides by it). */
export function numberEndingIn(last: number): string {
  return `+1415${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}${last}`;
}

export const CREDENTIALS = { accessToken: 'EAAG_super_secret_token_value', phoneNumberId: '106540352242922', businessAccountId: '102290129340398' };

export const SENDER_FIELDS = ['connectedAt', 'hasCredentials', 'id', 'isDefault', 'mode', 'numberSource', 'phoneDisplay', 'qualityRating', 'status', 'verifiedName'];

export function templateBody(overrides: Record<string, unknown> = {}) {
  return {
    name: `order_update_${Math.random().toString(36).slice(2, 8)}`,
    language: 'en_US',
    category: 'UTILITY',
    body: 'Hi {{1}}, your order {{2}} is on its way. {{3}}',
    footer: 'Reply STOP to opt out',
    bindings: [
      { placeholder: 1, source: 'CONTACT_FIELD', value: 'name' },
      { placeholder: 2, source: 'CAMPAIGN_VARIABLE', value: 'order_ref' },
      { placeholder: 3, source: 'CONSTANT', value: 'Thanks, Acme' },
    ],
    ...overrides,
  };
}

export async function count(t: TestApp, table: string): Promise<number> {
  return Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
}

/** Connects an own number through the API (201 expected). */
export async function connectSender(t: TestApp, key: string, phoneNumber: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await t.http.post('/whatsapp/senders').set(bearer(key)).send({ phoneNumber, credentials: CREDENTIALS, ...extra });
  if (res.status !== 201) throw new Error(`connectSender: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createTemplate(t: TestApp, key: string, overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await t.http.post('/whatsapp/templates').set(bearer(key)).send(templateBody(overrides));
  if (res.status !== 201) throw new Error(`createTemplate: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
