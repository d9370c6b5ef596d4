import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiLeadIntake } from '@outreach/campaigns';
import { AppError, Clock, isAppError, normalisePhone, UnitOfWork } from '@outreach/core';
import { contactFields, Lead, LeadFieldValue, leadFingerprint } from '../domain/lead';
import { LeadKeyRecord, LeadKeyStore, LeadPushBody, NewLeadStatement } from './results.ports';

/** A lead as the push body carries it (shape already validated; key already checked). */
export interface LeadPushInput {
  idempotencyKey: string;
  phone: string;
  name?: string | null;
  fields?: Record<string, LeadFieldValue>;
}

/**
 * What a push did: `created` a new contact, found the campaign's contact with that phone
 * (`deduplicated`), or `replayed` the first answer of its key. The route turns it into a status.
 */
export type LeadPushResult = 'created' | 'deduplicated' | 'replayed';

export interface LeadPushOutcome {
  result: LeadPushResult;
  body: LeadPushBody;
}

/**
 * POST /v1/campaigns/{id}/leads, in one transaction (decisions.md 42.2): the campaign
 * (campaign_not_found, campaign_not_accepting), the phone (invalid_phone), the contact (added with
 * a dispatch job, or the campaign's contact with that phone), then — last — the key with its
 * answer. A key pushed before (a unique index decides between concurrent pushes) rolls all of it
 * back and replays the first answer when the lead is the same (else idempotency_key_reused). Claiming
 * last, not first, saves the read before the claim and the write of the answer after it: a new
 * key, the common case, costs no statement for its idempotency beyond the one insert.
 *
 * The usual push — a new phone for a campaign this process has seen taking API leads — goes first
 * as one statement, with no transaction around it (NewLeadStatement, decisions.md 42.3). Whatever
 * that statement does not write (the campaign changed, the phone is known, a journey campaign)
 * takes the transaction above, which finds out why.
 */
@Injectable()
export class PushLead {
  constructor(
    private readonly intake: ApiLeadIntake,
    private readonly keys: LeadKeyStore,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly newLeads: NewLeadStatement,
  ) {}

  async push(workspaceId: string, campaignId: string, input: LeadPushInput): Promise<LeadPushOutcome> {
    const alone = await this.pushNew(workspaceId, campaignId, input);
    if (alone) return alone;
    let fingerprint = '';
    try {
      return await this.uow.run(async () => {
        const campaign = await this.intake.openCampaign(workspaceId, campaignId);
        const lead = this.toLead(input, campaign.countryCode);
        fingerprint = leadFingerprint(lead);
        const { contactId, created, contact } = await this.intake.admit(workspaceId, campaignId, {
          phone: lead.phone,
          name: lead.name,
          fields: contactFields(lead.fields),
        });
        const body = answerOf(campaignId, input.idempotencyKey, lead, { id: contactId, status: contact.status, attempts: contact.attempts, createdAt: contact.createdAt }, !created);
        // Last: the key with its answer. Taken before → everything above is rolled back.
        const claimed = await this.keys.claim({ campaignId, idempotencyKey: input.idempotencyKey, workspaceId, fingerprint, lead, leadId: contactId, response: body, createdAt: this.clock.now() });
        if (!claimed) throw new KeyTaken();
        return { result: created ? 'created' : 'deduplicated', body };
      });
    } catch (error) {
      if (!(error instanceof KeyTaken)) throw error;
    }
    return this.replayKey(campaignId, input.idempotencyKey, fingerprint);
  }

  /**
   * The push as one statement (decisions.md 42.3), when the campaign's calling code is remembered
   * and the phone normalises with it; null when that statement is not for this push or wrote
   * nothing (the caller then takes the transaction, which answers why). The contact's id and
   * createdAt are chosen here, so the answer stored with the key is known before the statement.
   */
  private async pushNew(workspaceId: string, campaignId: string, input: LeadPushInput): Promise<LeadPushOutcome | null> {
    const countryCode = this.intake.rememberedCountryCode(campaignId);
    if (countryCode === undefined) return null;
    const lead = leadOf(input, countryCode);
    if (!lead) return null;
    const fingerprint = leadFingerprint(lead);
    const at = this.clock.now();
    const contactId = randomUUID();
    const body = answerOf(campaignId, input.idempotencyKey, lead, { id: contactId, status: 'PENDING', attempts: 0, createdAt: at.toISOString() }, false);
    const written = await this.newLeads.write(
      { workspaceId, campaignId, countryCode, contactId, contact: { phone: lead.phone, name: lead.name, fields: contactFields(lead.fields) }, at },
      { campaignId, idempotencyKey: input.idempotencyKey, workspaceId, fingerprint, lead, leadId: contactId, response: body, createdAt: at },
    );
    if (written === 'written') return { result: 'created', body };
    if (written === 'key_taken') return this.replayKey(campaignId, input.idempotencyKey, fingerprint);
    return null;
  }

  /** The key was pushed before (or by a push that committed while this one waited for it). */
  private async replayKey(campaignId: string, idempotencyKey: string, fingerprint: string): Promise<LeadPushOutcome> {
    const known = await this.keys.find(campaignId, idempotencyKey);
    if (!known) throw new AppError('idempotency_in_progress', { headers: { 'Retry-After': '1' } });
    return replay(known, fingerprint);
  }

  /**
   * The bulk form: each item on its own (its own transaction and idempotency), in order. A
   * campaign that is unknown or not accepting refuses the whole batch up front; one that stops
   * accepting half-way answers campaign_not_accepting for the items left.
   */
  async pushMany(
    workspaceId: string,
    campaignId: string,
    items: ReadonlyArray<LeadPushInput | AppError>,
  ): Promise<Array<{ index: number; outcome: LeadPushOutcome } | { index: number; error: AppError }>> {
    await this.uow.run(() => this.intake.openCampaign(workspaceId, campaignId));
    const results: Array<{ index: number; outcome: LeadPushOutcome } | { index: number; error: AppError }> = [];
    for (const [index, item] of items.entries()) {
      if (isAppError(item)) {
        results.push({ index, error: item });
        continue;
      }
      try {
        results.push({ index, outcome: await this.push(workspaceId, campaignId, item) });
      } catch (error) {
        if (!isAppError(error)) throw error;
        results.push({ index, error });
      }
    }
    return results;
  }

  private toLead(input: LeadPushInput, countryCode: string | null): Lead {
    const lead = leadOf(input, countryCode);
    if (!lead) {
      throw new AppError('invalid_phone', {
        message: 'phone could not be normalised to E.164 (send +<country code><number>)',
        issues: [{ path: 'phone', message: 'not a valid phone number' }],
      });
    }
    return lead;
  }
}

/** The pushed lead with its phone normalised by the calling code; null when the phone cannot be. */
function leadOf(input: LeadPushInput, countryCode: string | null): Lead | null {
  const phone = normalisePhone(input.phone, countryCode);
  return phone ? { phone, name: input.name ?? null, fields: input.fields ?? {} } : null;
}

/** What a push answers (and stores with its key): the lead as pushed, the contact as it stands. */
function answerOf(
  campaignId: string,
  idempotencyKey: string,
  lead: Lead,
  contact: Pick<LeadPushBody, 'id' | 'status' | 'attempts' | 'createdAt'>,
  deduplicated: boolean,
): LeadPushBody {
  // In the contract's member order.
  return {
    id: contact.id,
    campaignId,
    idempotencyKey,
    phone: lead.phone,
    name: lead.name,
    fields: lead.fields,
    status: contact.status,
    attempts: contact.attempts,
    resultId: null,
    deduplicated,
    createdAt: contact.createdAt,
  };
}

function replay(known: LeadKeyRecord, fingerprint: string): LeadPushOutcome {
  if (known.fingerprint !== fingerprint) {
    throw new AppError('idempotency_key_reused', {
      message: 'this idempotencyKey was used for a different lead in this campaign',
    });
  }
  if (!known.response) throw new AppError('idempotency_in_progress', { headers: { 'Retry-After': '1' } });
  return { result: 'replayed', body: known.response };
}

/** The key was taken by a push that committed: this push's transaction is rolled back, then it replays. */
class KeyTaken extends Error {}
