// Seeding for the HTTP benchmarks (results, scale): a workspace with an API key, two RUNNING API
// campaigns (sandbox agent, number, credit) and one stored result, made through the real API in
// this process (closed again before any load starts). Reads DATABASE_URL / REDIS_PREFIX as set by the bench.
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AddressInfo } from 'node:net';
import { ProvisionAgent } from '@outreach/agents';
import { CreditWallet } from '@outreach/billing';
import { configureApiApp } from '@outreach/platform';
import { RecordLeadResult } from '@outreach/results';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { ApiKeyAdministration, WorkspaceAdministration } from '@outreach/workspaces';
import { DataSource } from 'typeorm';

/** Distinct valid US numbers: +1 415 <exchange 200-999> <line>. */
// A random start: phone numbers are unique across the service, and earlier runs left theirs.
let phoneCounter = Math.floor(Math.random() * 7_000_000);
/** A number not used by any nextPhone() before it in this process. */
export const phoneSerial = (): number => phoneCounter;
export function nextPhone(prefix: number): string {
  const n = phoneCounter++;
  return `+1${prefix}${200 + (Math.floor(n / 10000) % 800)}${String(n % 10000).padStart(4, '0')}`;
}

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A workspace with a key, a RUNNING API campaign (sandbox agent, number, credit) and one result. */
async function seed(app: INestApplication, base: string) {
  const { workspace } = await app.get(WorkspaceAdministration).create({ name: `bench-${Date.now()}`, features: ['api_results'] });
  const issued = await app.get(ApiKeyAdministration).create({ workspaceId: workspace.id, name: 'bench', scopes: ['campaigns.view', 'campaigns.edit', 'agents.edit', 'agents.view'] });
  const headers = { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(json);
  const agent = await post('/agents', { name: `Bench agent ${Date.now()}`, prompt: 'You are calling about an enquiry.', voice: 'aria' });
  await app.get(ProvisionAgent).execute(agent.id as string);
  await app.get(CreditWallet).execute({ workspaceId: workspace.id, amountMinor: 1_000_000_000 });
  const campaigns: string[] = [];
  for (const name of ['api', 'raw']) {
    const campaign = await post('/v1/campaigns', { name: `Bench ${name} ${Date.now()}`, channel: 'VOICE', source: 'API', agentId: agent.id });
    const number = await app.get(PhoneNumberAdministration).add({ workspaceId: workspace.id, e164: nextPhone(212) });
    await post(`/campaigns/${campaign.id}/phone-numbers`, { phoneNumberId: number.id });
    await post(`/campaigns/${campaign.id}/start`, {});
    campaigns.push(campaign.id as string);
  }
  const lead = await post(`/v1/campaigns/${campaigns[0]}/leads`, { idempotencyKey: 'seed', phone: nextPhone(646), name: 'Seed', fields: { plan: 'pro' } });
  await app.get(DataSource).query(`UPDATE campaign_contacts SET status = 'COMPLETED', attempts = 1, last_outcome = 'completed' WHERE id = $1`, [lead.id]);
  const resultId = (await app.get(RecordLeadResult).execute(lead.id as string))!;
  const envelope = await fetch(`${base}/v1/results/${resultId}`, { headers }).then(json);
  return { key: issued.key, apiCampaign: campaigns[0], rawCampaign: campaigns[1], resultId, envelope };
}

export type Seeded = Awaited<ReturnType<typeof seed>>;

/** Boots the API in this process, seeds, closes it. */
export async function seedApi(): Promise<Seeded> {
  const app = await NestFactory.create((await import('../apps/api/src/api.module')).ApiModule, { bodyParser: false, logger: false });
  configureApiApp(app);
  await app.listen(0, '127.0.0.1');
  try {
    return await seed(app, `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`);
  } finally {
    await app.close();
  }
}
