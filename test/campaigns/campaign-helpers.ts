import { CreditWallet } from '@outreach/billing';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { bearer, TestApp } from '../support/test-app';

type Res = { status: number; body: Record<string, unknown> };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
type Loose = Record<string, any>;

/** Asserts the status AND the error code (and that the body carries a requestId). */
export function expectError(res: Res, status: number, code: string): void {
  expect({ status: res.status, error: res.body.error, body: res.status === status ? undefined : res.body }).toEqual({
    status,
    error: code,
    body: undefined,
  });
  expect(typeof res.body.requestId).toBe('string');
}

let counter = 0;
export function uniqueName(prefix = 'Campaign'): string {
  counter += 1;
  return `${prefix} ${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

/** Creates a campaign over HTTP (201 expected) and returns its body. */
export async function createCampaign(t: TestApp, key: string, body: Record<string, unknown> = {}): Promise<Loose> {
  const res = await t.http
    .post('/v1/campaigns')
    .set(bearer(key))
    .send({ name: uniqueName(), channel: 'VOICE', source: 'CSV', ...body });
  if (res.status !== 201) throw new Error(`createCampaign: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A phone number of the workspace (operator action), attached to the campaign over HTTP. */
export async function attachNumber(t: TestApp, key: string, workspaceId: string, campaignId: string, e164?: string): Promise<string> {
  const number = await t.get(PhoneNumberAdministration).add({ workspaceId, e164: e164 ?? randomE164() });
  const res = await t.http.post(`/campaigns/${campaignId}/phone-numbers`).set(bearer(key)).send({ phoneNumberId: number.id });
  if (res.status !== 200) throw new Error(`attachNumber: ${res.status} ${JSON.stringify(res.body)}`);
  return number.id;
}

export function randomE164(): string {
  // US numbers in the 415 area, exchange 2xx-9xx: valid for libphonenumber.
  const exchange = 200 + Math.floor(Math.random() * 800);
  const line = Math.floor(Math.random() * 10000).toString().padStart(4, '0');
  return `+1415${exchange}${line}`;
}

export async function credit(t: TestApp, workspaceId: string, amountMinor = 10_000): Promise<void> {
  await t.get(CreditWallet).execute({ workspaceId, amountMinor });
}

export async function workspaceSettings(t: TestApp, workspaceId: string, settings: Parameters<WorkspaceAdministration['update']>[1]) {
  return t.get(WorkspaceAdministration).update(workspaceId, settings);
}

/** Reads the campaign back over HTTP. */
export async function readCampaign(t: TestApp, key: string, id: string): Promise<Loose> {
  const res = await t.http.get(`/v1/campaigns/${id}`).set(bearer(key));
  if (res.status !== 200) throw new Error(`readCampaign: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function addContacts(t: TestApp, key: string, campaignId: string, phones: string[]): Promise<void> {
  const res = await t.http
    .post(`/campaigns/${campaignId}/contacts`)
    .set(bearer(key))
    .send(phones.map((phone) => ({ phone })));
  if (res.status !== 201) throw new Error(`addContacts: ${res.status} ${JSON.stringify(res.body)}`);
}
