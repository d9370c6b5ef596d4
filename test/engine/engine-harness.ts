import { Type } from '@nestjs/common';
import { TestingModuleBuilder } from '@nestjs/testing';
import { DispatchCampaign, DispatchReport, ReapStuckAttempts } from '@outreach/engine';
import { Clock } from '@outreach/platform';
import { PlacedCall, SandboxVoiceProvider, VoiceCallEvent, VoiceCallEvents, VoiceCallRequest, VoiceCallStatus, VoiceProvider } from '@outreach/telephony';
import { InMemorySandboxCallRecords } from '../../libs/telephony/src/testing';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { addContacts, attachNumber, createCampaign, credit } from '../campaigns/campaign-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';

/**
 * Wraps the sandbox: counts every placeCall per number, records the largest number of calls to one
 * number in flight at once (placed, ended event not yet delivered), and can hold calls' endings at
 * a gate until the test lets them go (a held call is in flight at the provider: lookupCall says
 * so). The sandbox's events pass through here to the worker(s) it is attached to (startWorker).
 */
export class CountingVoiceProvider extends VoiceProvider {
  readonly name = 'sandbox';
  readonly placed = new Map<string, number>();
  readonly inFlight = new Map<string, number>();
  maxConcurrentPerNumber = 0;
  /** Largest number of calls in flight at once (all numbers). */
  maxInFlight = 0;
  private flying = 0;
  private gated = false;
  private readonly waiting: Array<{ to: string; callId: string; release: () => void }> = [];
  private readonly numbers = new Map<string, string>();
  private readonly targets: VoiceCallEvents[] = [];

  constructor(private readonly sandbox: SandboxVoiceProvider) {
    super();
    sandbox.events.subscribe((event) => this.pass(event));
  }

  /** The worker whose VoiceCallEvents get this provider's events (the first attached that answers). */
  attach(events: VoiceCallEvents): void {
    this.targets.push(events);
  }

  async placeCall(request: VoiceCallRequest): Promise<PlacedCall> {
    if (!this.numbers.has(request.callId)) {
      this.numbers.set(request.callId, request.to);
      this.placed.set(request.to, (this.placed.get(request.to) ?? 0) + 1);
      const flying = (this.inFlight.get(request.to) ?? 0) + 1;
      this.inFlight.set(request.to, flying);
      this.maxConcurrentPerNumber = Math.max(this.maxConcurrentPerNumber, flying);
      this.flying++;
      this.maxInFlight = Math.max(this.maxInFlight, this.flying);
    }
    return this.sandbox.placeCall(request);
  }

  /** A call held at the gate is in flight at the provider; the others are the sandbox's to answer. */
  async lookupCall(callId: string): Promise<VoiceCallStatus> {
    if (this.waiting.some((w) => w.callId === callId)) return { state: 'in_progress' };
    return this.sandbox.lookupCall(callId);
  }

  private async pass(event: VoiceCallEvent): Promise<void> {
    if (event.type === 'ended') {
      const to = this.numbers.get(event.callId);
      if (this.gated && to) await new Promise<void>((release) => this.waiting.push({ to, callId: event.callId, release }));
      if (to !== undefined && this.numbers.delete(event.callId)) {
        this.flying--;
        this.inFlight.set(to, (this.inFlight.get(to) ?? 1) - 1);
      }
    }
    let lastError: unknown = new Error('no worker attached to the counting voice provider');
    for (const target of this.targets) {
      try {
        return await target.deliver(event);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  }

  /** From now on calls' endings wait at the gate until released. */
  closeGate(): void {
    this.gated = true;
  }

  /** Opens the gate and lets every waiting call go. */
  openGate(): void {
    this.gated = false;
    for (const w of this.waiting.splice(0)) w.release();
  }

  /** Numbers of the calls waiting at the gate. */
  get held(): string[] {
    return this.waiting.map((w) => w.to);
  }

  /** Lets the waiting call to `to` go. */
  release(to: string): void {
    const index = this.waiting.findIndex((w) => w.to === to);
    if (index < 0) throw new Error(`no call to ${to} is waiting`);
    this.waiting.splice(index, 1)[0].release();
  }

  total(): number {
    return [...this.placed.values()].reduce((a, b) => a + b, 0);
  }

  reset(): void {
    this.placed.clear();
    this.inFlight.clear();
    this.maxConcurrentPerNumber = 0;
    this.maxInFlight = 0;
    this.openGate();
  }
}

/** A worker context (apps/worker's WorkerModule) on this jest worker's database and Redis prefix. */
export async function startWorker(options: { clock?: Clock; voice?: VoiceProvider; root?: Type<unknown> } = {}): Promise<WorkerApp> {
  const worker = await WorkerApp.create({
    root: options.root ?? WorkerModule,
    configure: (b: TestingModuleBuilder) => {
      let builder = b;
      if (options.clock) builder = builder.overrideProvider(Clock).useValue(options.clock);
      if (options.voice) builder = builder.overrideProvider(VoiceProvider).useValue(options.voice);
      return builder;
    },
  });
  // A provider built outside the app delivers its events to this worker's VoiceCallEvents.
  if (options.voice && 'attach' in options.voice) (options.voice as CountingVoiceProvider).attach(worker.get(VoiceCallEvents));
  return worker;
}

/** The sandbox as the worker would build it (for wrapping). */
export function sandboxFor(clock: Clock, latencyMs = 0): SandboxVoiceProvider {
  return new SandboxVoiceProvider(clock, { sandboxVoiceLatencyMs: latencyMs } as never, new InMemorySandboxCallRecords(), new VoiceCallEvents());
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await probe();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
    last = await probe();
  }
  return last;
}

/** A number that libphonenumber accepts (US, 415) whose last digit picks the sandbox outcome. */
export function sandboxNumber(index: number, lastDigit: number): string {
  const exchange = 200 + (index % 700);
  const line = (Math.floor(index / 700) * 10 + lastDigit).toString().padStart(4, '0');
  return `+1415${exchange}${line}`;
}

export interface ContactRow {
  id: string;
  phone: string;
  status: string;
  attempts: number;
  attempt_seq: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_outcome: string | null;
}

export interface CallRow {
  id: string;
  contact_id: string;
  to_number: string;
  status: string;
  outcome: string | null;
  provider_disposition: string | null;
  attempt_number: number;
  duration_ms: number | null;
  started_at: Date;
}

export class EngineProbe {
  constructor(private readonly t: TestApp) {}

  contacts(campaignId: string): Promise<ContactRow[]> {
    return this.t.dataSource.query(
      `SELECT id, phone, status, attempts, attempt_seq, next_attempt_at, last_attempt_at, last_outcome
         FROM campaign_contacts WHERE campaign_id = $1 ORDER BY seq`,
      [campaignId],
    );
  }

  calls(campaignId: string): Promise<CallRow[]> {
    return this.t.dataSource.query(
      `SELECT id, contact_id, to_number, status, outcome, provider_disposition, attempt_number, duration_ms, started_at
         FROM calls WHERE campaign_id = $1 ORDER BY to_number, attempt_number, started_at`,
      [campaignId],
    );
  }

  async campaignStatus(campaignId: string): Promise<string> {
    const rows: Array<{ status: string }> = await this.t.dataSource.query(`SELECT status FROM campaigns WHERE id = $1`, [campaignId]);
    return rows[0].status;
  }

  async statusCounts(campaignId: string): Promise<Record<string, number>> {
    const rows: Array<{ status: string; n: number }> = await this.t.dataSource.query(
      `SELECT status, count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1 GROUP BY status`,
      [campaignId],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** No attempt in flight and no attempt job waiting in the outbox. */
  async settled(campaignId: string): Promise<boolean> {
    const rows: Array<{ busy: boolean }> = await this.t.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM campaign_contacts WHERE campaign_id = $1 AND status = 'IN_PROGRESS') AS busy`,
      [campaignId],
    );
    return !rows[0].busy;
  }

  async wallet(workspaceId: string): Promise<{ balance: number; credits: number; debits: number; debitCount: number }> {
    const [w]: Array<{ balance: string | null }> = await this.t.dataSource.query(
      `SELECT (SELECT balance_minor FROM wallets WHERE workspace_id = $1) AS balance`,
      [workspaceId],
    );
    const [l]: Array<{ credits: string; debits: string; n: number }> = await this.t.dataSource.query(
      `SELECT COALESCE(SUM(amount_minor) FILTER (WHERE kind = 'credit'), 0) AS credits,
              COALESCE(SUM(amount_minor) FILTER (WHERE kind = 'debit'), 0) AS debits,
              count(*) FILTER (WHERE kind = 'debit')::int AS n
         FROM ledger_entries WHERE workspace_id = $1`,
      [workspaceId],
    );
    return { balance: Number(w.balance ?? 0), credits: Number(l.credits), debits: Number(l.debits), debitCount: l.n };
  }
}

/** A VOICE CSV campaign with an ACTIVE agent, one sandbox caller id, the contacts, and credit; not started; dials at any hour. */
export async function runnableCampaign(
  t: TestApp,
  ws: Seeded,
  options: { phones: string[]; settings?: Record<string, unknown>; creditMinor?: number; agent?: Record<string, unknown> },
): Promise<{ campaignId: string; agentId: string }> {
  const agent = await createActiveAgent(t, ws.key, options.agent ?? {});
  const campaign = await createCampaign(t, ws.key, {
    agentId: agent.id,
    timezone: 'UTC',
    dailyWindowStart: '00:00',
    dailyWindowEnd: '00:00',
    // Recipient-local hours (on by default) are off unless the test is about them (test/engine/recipient-hours.e2e-spec.ts).
    recipientHours: 'off',
    ...(options.settings ?? {}),
  });
  await attachNumber(t, ws.key, ws.workspaceId, campaign.id);
  for (let i = 0; i < options.phones.length; i += 500) await addContacts(t, ws.key, campaign.id, options.phones.slice(i, i + 500));
  if (options.creditMinor !== 0) await credit(t, ws.workspaceId, options.creditMinor ?? 1_000_000);
  return { campaignId: campaign.id, agentId: agent.id };
}

export async function startCampaign(t: TestApp, ws: Seeded, campaignId: string, body: Record<string, unknown> = {}): Promise<void> {
  const res = await t.http.post(`/campaigns/${campaignId}/start`).set(bearer(ws.key)).send(body);
  if (res.status !== 200) throw new Error(`start: ${res.status} ${JSON.stringify(res.body)}`);
}

export function dispatcher(worker: WorkerApp): (campaignId: string) => Promise<DispatchReport> {
  const dispatch = worker.get(DispatchCampaign);
  return (campaignId) => dispatch.execute(campaignId);
}

export function reaper(worker: WorkerApp): ReapStuckAttempts {
  return worker.get(ReapStuckAttempts);
}
