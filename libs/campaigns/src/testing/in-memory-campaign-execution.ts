// The engine's side of the campaigns and contacts tables (CampaignExecutionRepository), over the
// same in-memory stores as the other campaigns fakes, so a contact the lifecycle resets is the one
// the dispatcher claims. Status changes take their from/to statuses from CONTACT_TRANSITIONS, as
// the SQL does.
import {
  AttemptContact,
  AttemptOutcomeUpdate,
  CampaignExecutionRepository,
  CampaignLoad,
  CampaignWork,
  ClaimInput,
  ClaimedContact,
  ExecutionCampaign,
  PlacedCall,
} from '../application/campaign-execution.ports';
import { channelsStartingWith, ContactLeg } from '../domain/contact-legs';
import { localeKey } from '../domain/recipient-hours';
import { RecipientLocale } from '../domain/recipient-locale';
import { allowedFrom, ContactEvent, IN_FLIGHT_STATUS, settlementEvent, targetOf } from '../domain/contact-state-machine';
import { Rollbackable } from '../../../platform/src/testing';
import { InMemoryCampaignRepository, InMemoryContactRepository, StoredContact } from './in-memory-campaigns';

export class InMemoryCampaignExecutionRepository extends CampaignExecutionRepository implements Rollbackable {
  /** Dials per `${campaignId}/${day}` (the daily dial counter table). */
  readonly dials = new Map<string, number>();
  /** Workspaces whose dispatch lock was taken, in order. */
  readonly workspaceLocks: string[] = [];
  /** Every claimDue request, in order (the limit the dispatcher asked for). */
  readonly claims: Array<{ campaignId: string } & ClaimInput> = [];

  constructor(
    private readonly campaigns: InMemoryCampaignRepository,
    private readonly contacts: InMemoryContactRepository,
  ) {
    super();
  }

  async findCampaign(campaignId: string): Promise<ExecutionCampaign | null> {
    return this.campaigns.stored(campaignId) ?? null;
  }

  async lockWorkspace(workspaceId: string): Promise<void> {
    this.workspaceLocks.push(workspaceId);
  }

  async workspaceLoad(workspaceId: string): Promise<CampaignLoad[]> {
    const inFlight = new Map<string, number>();
    const retries = new Map<string, number>();
    for (const c of this.contacts.rows.values()) {
      if (c.workspaceId === workspaceId && c.status === IN_FLIGHT_STATUS) inFlight.set(c.campaignId, (inFlight.get(c.campaignId) ?? 0) + 1);
      if (c.workspaceId === workspaceId && c.status === IN_FLIGHT_STATUS && c.attempts > 1) retries.set(c.campaignId, (retries.get(c.campaignId) ?? 0) + 1);
    }
    return [...this.campaigns.rows.values()]
      .filter((p) => p.workspaceId === workspaceId && (p.status === 'RUNNING' || (inFlight.get(p.id) ?? 0) > 0))
      .map((p) => ({
        campaignId: p.id,
        status: p.status,
        reservedConcurrency: p.reservedConcurrency,
        allowBurst: p.allowBurst,
        inFlight: inFlight.get(p.id) ?? 0,
        retriesInFlight: retries.get(p.id) ?? 0,
      }));
  }

  /** Due retries first (by next_attempt_at, then upload order), then PENDING contacts in upload order; cooled down only. */
  async claimDue(campaignId: string, input: ClaimInput): Promise<ClaimedContact[]> {
    this.claims.push({ campaignId, ...input });
    if (input.limit <= 0) return [];
    const cooledBefore = input.now.getTime() - input.cooldownMs;
    const open = input.openLocales ? new Set(input.openLocales) : null;
    const candidates = this.ofCampaign(campaignId).filter(
      (c) =>
        (c.lastAttemptAt === null || Date.parse(c.lastAttemptAt) <= cooledBefore) &&
        (!open || open.has(localeKey(localeOf(c)))) &&
        (!input.leg || c.leg === input.leg.wanted || (input.leg.first && c.leg === null)),
    );
    const due = candidates
      .filter((c) => allowedFrom('claimRetry').includes(c.status) && c.nextAttemptAt !== null && Date.parse(c.nextAttemptAt) <= input.now.getTime())
      .sort((a, b) => Date.parse(a.nextAttemptAt!) - Date.parse(b.nextAttemptAt!) || a.seq - b.seq);
    // Retries up to their share (retryLimit), first dials, then the other retries fill what is left.
    const first = due.slice(0, Math.min(input.limit, input.retryLimit ?? input.limit));
    const pending = candidates.filter((c) => allowedFrom('claim').includes(c.status)).slice(0, input.limit - first.length);
    const retries = [...first, ...due.slice(first.length, first.length + input.limit - first.length - pending.length)];
    const claim = (c: StoredContact, event: ContactEvent): ClaimedContact => {
      c.status = targetOf(event);
      c.attempts += 1;
      c.attemptSeq += 1;
      c.attemptStartedAt = input.now;
      c.attemptDeadlineAt = input.deadlineAt;
      c.currentCallId = null;
      c.nextAttemptAt = null;
      c.updatedAt = input.now.toISOString();
      return { id: c.id, phone: c.phone, altPhones: [...c.altPhones], phoneIndex: c.phoneIndex, attempts: c.attempts, attemptSeq: c.attemptSeq };
    };
    return [...retries.map((c) => claim(c, 'claimRetry')), ...pending.map((c) => claim(c, 'claim'))];
  }

  async contactCount(campaignId: string): Promise<number> {
    return this.ofCampaign(campaignId).length;
  }

  async recipientLocales(campaignId: string): Promise<RecipientLocale[]> {
    return distinctLocales(this.ofCampaign(campaignId).filter((c) => allowedFrom('claim').includes(c.status) || allowedFrom('claimRetry').includes(c.status)));
  }

  async nextRetryAfter(campaignId: string, now: Date): Promise<Date | null> {
    const times = this.ofCampaign(campaignId)
      .filter((c) => allowedFrom('claimRetry').includes(c.status) && c.nextAttemptAt !== null && Date.parse(c.nextAttemptAt) > now.getTime())
      .map((c) => Date.parse(c.nextAttemptAt!));
    return times.length ? new Date(Math.min(...times)) : null;
  }

  async dueLocales(campaignId: string, now: Date): Promise<RecipientLocale[]> {
    return distinctLocales(
      this.ofCampaign(campaignId).filter(
        (c) =>
          allowedFrom('claim').includes(c.status) ||
          (allowedFrom('claimRetry').includes(c.status) && c.nextAttemptAt !== null && Date.parse(c.nextAttemptAt) <= now.getTime()),
      ),
    );
  }

  async dialsOn(campaignId: string, day: string): Promise<number> {
    return this.dials.get(`${campaignId}/${day}`) ?? 0;
  }

  async addDials(campaignId: string, day: string, count: number): Promise<void> {
    if (count === 0) return;
    this.dials.set(`${campaignId}/${day}`, (this.dials.get(`${campaignId}/${day}`) ?? 0) + count);
  }

  async dueIds(campaignId: string, now: Date, limit: number, locales?: readonly string[] | null): Promise<string[]> {
    const only = locales ? new Set(locales) : null;
    const contacts = this.ofCampaign(campaignId).filter((c) => !only || only.has(localeKey(localeOf(c))));
    const retries = contacts
      .filter((c) => allowedFrom('claimRetry').includes(c.status) && c.nextAttemptAt !== null && Date.parse(c.nextAttemptAt) <= now.getTime())
      .sort((a, b) => Date.parse(a.nextAttemptAt!) - Date.parse(b.nextAttemptAt!) || a.seq - b.seq);
    const pending = contacts.filter((c) => allowedFrom('claim').includes(c.status));
    return [...retries, ...pending].slice(0, Math.max(0, limit)).map((c) => c.id);
  }

  /** Messages per `${campaignId}/${day}` (the dailyMessageCap counter). */
  readonly messages = new Map<string, number>();

  async messagesOn(campaignId: string, day: string): Promise<number> {
    return this.messages.get(`${campaignId}/${day}`) ?? 0;
  }

  async addMessages(campaignId: string, day: string, count: number): Promise<void> {
    const key = `${campaignId}/${day}`;
    this.messages.set(key, (this.messages.get(key) ?? 0) + count);
  }

  async work(campaignId: string): Promise<CampaignWork> {
    const contacts = this.ofCampaign(campaignId);
    const retryTimes = contacts
      .filter((c) => allowedFrom('claimRetry').includes(c.status) && c.nextAttemptAt !== null)
      .map((c) => Date.parse(c.nextAttemptAt!));
    return {
      pending: contacts.some((c) => allowedFrom('claim').includes(c.status)),
      inFlight: contacts.some((c) => c.status === IN_FLIGHT_STATUS),
      nextRetryAt: retryTimes.length ? new Date(Math.min(...retryTimes)) : null,
    };
  }

  async lockContact(contactId: string): Promise<AttemptContact | null> {
    const c = this.contacts.rows.get(contactId);
    if (!c) return null;
    return structuredClone({
      id: c.id,
      campaignId: c.campaignId,
      workspaceId: c.workspaceId,
      phone: c.phone,
      altPhones: c.altPhones,
      phoneIndex: c.phoneIndex,
      phoneFirstAttempt: c.phoneFirstAttempt,
      name: c.name,
      fields: c.fields,
      status: c.status,
      attempts: c.attempts,
      attemptSeq: c.attemptSeq,
      currentCallId: c.currentCallId,
      incompleteRetries: c.incompleteRetries,
      attemptStartedAt: c.attemptStartedAt,
      attemptDeadlineAt: c.attemptDeadlineAt,
      followups: c.followups,
      churnRounds: c.churnRounds,
      referralDepth: c.referralDepth,
      leg: c.leg,
      messageSends: c.messageSends,
      messageTransient: c.messageTransient,
      messageLegAt: c.messageLegAt,
      messageOutcome: c.messageOutcome,
      followupCallId: c.followupCallId,
    });
  }

  async lockContacts(contactIds: readonly string[]): Promise<AttemptContact[]> {
    const found = await Promise.all([...new Set(contactIds)].sort().map((id) => this.lockContact(id)));
    return found.filter((c): c is AttemptContact => c !== null);
  }

  async recordOutcomes(outcomes: ReadonlyArray<{ contactId: string; attemptSeq: number; update: AttemptOutcomeUpdate }>): Promise<Set<string>> {
    const moved = new Set<string>();
    for (const { contactId, attemptSeq, update } of outcomes) if (await this.recordOutcome(contactId, attemptSeq, update)) moved.add(contactId);
    return moved;
  }

  async markCallStarted(contactId: string, attemptSeq: number, callId: string): Promise<void> {
    const c = this.current(contactId, attemptSeq, [IN_FLIGHT_STATUS]);
    if (c) c.currentCallId = callId;
  }

  async markCallsStarted(started: ReadonlyArray<{ contactId: string; attemptSeq: number; callId: string }>): Promise<void> {
    for (const s of started) await this.markCallStarted(s.contactId, s.attemptSeq, s.callId);
  }

  async recordOutcome(contactId: string, attemptSeq: number, update: AttemptOutcomeUpdate): Promise<boolean> {
    const event = settlementEvent(update.status);
    const c = this.current(contactId, attemptSeq, allowedFrom(event));
    if (!c) return false;
    c.status = targetOf(event);
    c.nextAttemptAt = update.nextAttemptAt?.toISOString() ?? null;
    c.lastOutcome = update.lastOutcome;
    c.lastAttemptAt = update.lastAttemptAt.toISOString();
    c.incompleteRetries = update.nextNumber ? 0 : c.incompleteRetries + (update.incompleteRetry ? 1 : 0);
    if (update.nextNumber) {
      c.phoneIndex += 1;
      c.phoneFirstAttempt = c.attempts;
    }
    c.connectedPhone = update.connectedPhone ?? c.connectedPhone;
    if (update.sequence === 'followup') c.followups += 1;
    if (update.sequence === 'churn') c.churnRounds += 1;
    c.lastTalkMs = update.talkMs ?? null;
    if (update.legState) {
      const { switchLeg, ...legState } = update.legState;
      Object.assign(c, legState);
      if (switchLeg) {
        c.phoneFirstAttempt = c.attempts;
        c.incompleteRetries = 0;
      }
    }
    c.attemptDeadlineAt = null;
    return true;
  }

  /** `release` on a first attempt (back to PENDING), `releaseRetry` on a later one (due again now). */
  async release(contactId: string, attemptSeq: number, now: Date): Promise<void> {
    const c = this.contacts.rows.get(contactId);
    if (!c || c.attemptSeq !== attemptSeq) return;
    const event: ContactEvent = c.attempts <= 1 ? 'release' : 'releaseRetry';
    if (!allowedFrom(event).includes(c.status)) return;
    c.status = targetOf(event);
    c.nextAttemptAt = event === 'release' ? null : now.toISOString();
    c.attempts = Math.max(c.attempts - 1, 0);
    c.attemptDeadlineAt = null;
  }

  async skipToNextNumber(contacts: ReadonlyArray<{ id: string; attemptSeq: number }>, now: Date): Promise<void> {
    for (const { id, attemptSeq } of contacts) {
      const c = this.current(id, attemptSeq, allowedFrom('scheduleRetry'));
      if (!c || c.phoneIndex >= c.altPhones.length) continue;
      c.status = targetOf('scheduleRetry');
      c.attempts = Math.max(c.attempts - 1, 0);
      c.lastOutcome = 'do_not_call';
      c.phoneIndex += 1;
      c.phoneFirstAttempt = c.attempts;
      c.incompleteRetries = 0;
      c.nextAttemptAt = now.toISOString();
      c.attemptDeadlineAt = null;
    }
  }

  async markDoNotCall(contacts: ReadonlyArray<{ id: string; attemptSeq: number }>): Promise<void> {
    for (const { id, attemptSeq } of contacts) {
      const c = this.current(id, attemptSeq, allowedFrom('doNotCall'));
      if (!c) continue;
      c.status = targetOf('doNotCall');
      c.attempts = Math.max(c.attempts - 1, 0);
      c.lastOutcome = 'do_not_call';
      c.nextAttemptAt = null;
      c.attemptDeadlineAt = null;
    }
  }

  async findStuck(now: Date, limit: number): Promise<Array<{ contactId: string; attemptSeq: number }>> {
    return [...this.contacts.rows.values()]
      .filter((c) => c.status === IN_FLIGHT_STATUS && c.attemptDeadlineAt !== null && c.attemptDeadlineAt.getTime() < now.getTime())
      .sort((a, b) => a.attemptDeadlineAt!.getTime() - b.attemptDeadlineAt!.getTime())
      .slice(0, limit)
      .map((c) => ({ contactId: c.id, attemptSeq: c.attemptSeq }));
  }

  async findUndialled(leg: ContactLeg, claimedBefore: Date, limit: number): Promise<Array<{ contactId: string; attemptSeq: number }>> {
    const starting = new Set<string>(channelsStartingWith(leg));
    const runs = (c: StoredContact) => (c.leg === null ? starting.has(this.campaigns.rows.get(c.campaignId)?.channel ?? '') : c.leg === leg);
    return [...this.contacts.rows.values()]
      .filter((c) => c.status === IN_FLIGHT_STATUS && c.attemptDeadlineAt !== null && c.currentCallId === null && c.attemptStartedAt !== null && c.attemptStartedAt.getTime() < claimedBefore.getTime())
      .filter(runs)
      .sort((a, b) => a.attemptStartedAt!.getTime() - b.attemptStartedAt!.getTime())
      .slice(0, limit)
      .map((c) => ({ contactId: c.id, attemptSeq: c.attemptSeq }));
  }

  async findPlacedCalls(claimedBefore: Date, after: PlacedCall | null, limit: number): Promise<PlacedCall[]> {
    // The SQL's order: claim time, then contact id.
    const byClaim = (a: PlacedCall, b: PlacedCall) => a.claimedAt.getTime() - b.claimedAt.getTime() || (a.contactId < b.contactId ? -1 : a.contactId > b.contactId ? 1 : 0);
    return [...this.contacts.rows.values()]
      .filter((c) => c.status === IN_FLIGHT_STATUS && c.attemptDeadlineAt !== null && c.currentCallId !== null && c.attemptStartedAt !== null && c.attemptStartedAt.getTime() < claimedBefore.getTime())
      .map((c) => ({ contactId: c.id, attemptSeq: c.attemptSeq, callId: c.currentCallId!, claimedAt: c.attemptStartedAt! }))
      .filter((p) => after === null || byClaim(p, after) > 0)
      .sort(byClaim)
      .slice(0, limit);
  }

  async runningCampaignIds(workspaceId?: string): Promise<string[]> {
    return [...this.campaigns.rows.values()]
      .filter((p) => p.status === 'RUNNING' && (workspaceId === undefined || p.workspaceId === workspaceId))
      .map((p) => p.id)
      .sort();
  }

  /** The stored contact when it is on attempt `attemptSeq` in one of `statuses` (the UPDATE's WHERE). */
  private current(contactId: string, attemptSeq: number, statuses: readonly string[]): StoredContact | undefined {
    const c = this.contacts.rows.get(contactId);
    return c && c.attemptSeq === attemptSeq && statuses.includes(c.status) ? c : undefined;
  }

  /** The campaign's stored rows (live, for updating), in upload order. */
  private ofCampaign(campaignId: string): StoredContact[] {
    return [...this.contacts.rows.values()].filter((c) => c.campaignId === campaignId).sort((a, b) => a.seq - b.seq);
  }

  snapshot(): unknown {
    return new Map(this.dials);
  }

  restore(state: unknown): void {
    this.dials.clear();
    for (const [k, v] of state as Map<string, number>) this.dials.set(k, v);
  }
}

function localeOf(c: StoredContact): RecipientLocale {
  return { zone: c.recipientZone, region: c.recipientRegion };
}

function distinctLocales(contacts: readonly StoredContact[]): RecipientLocale[] {
  const byKey = new Map<string, RecipientLocale>();
  for (const c of contacts) byKey.set(localeKey(localeOf(c)), localeOf(c));
  return [...byKey.values()];
}
