import { Injectable } from '@nestjs/common';
import { isUuid, prepared, TransactionHost } from '@outreach/platform';
import {
  ATTEMPT_CONTACT_FIELDS,
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
import { RecipientLocale } from '../domain/recipient-locale';
import { CONTACT_COUNT_OF_C } from './contact-count.sql';
import { allowedFrom, ContactEvent, IN_FLIGHT_STATUS, settlementEvent, targetOf } from '../domain/contact-state-machine';
import { statusIn } from './contact-status.sql';
import { CAMPAIGN_PROPS, CAMPAIGNS } from './persistence/campaign.table';
import { CAMPAIGN_CONTACTS as CC } from './persistence/campaign-contact.table';
import { CAMPAIGN_DAILY_DIALS as DD } from './persistence/campaign-daily-dial.table';
import { RESERVATION_LOCK_NAMESPACE } from './sql-campaign.repository';

type Row = Record<string, unknown>;

/** A contact's locale key in SQL, as `localeKey` (domain/recipient-hours.ts) writes it: "<zone>|<region>", "" for unknown. */
const LOCALE_KEY = `(COALESCE(${CC.c.recipientZone}, '') || '|' || COALESCE(${CC.c.recipientRegion}, ''))`;

const CLAIMED: ReadonlyArray<keyof ClaimedContact> = ['id', 'phone', 'altPhones', 'phoneIndex', 'attempts', 'attemptSeq'];

/**
 * The claim of `event` (claim or claimRetry): the due contacts picked by `due` (a SELECT … FOR
 * UPDATE SKIP LOCKED of ids), moved to the event's target status. `params` holds the due query's
 * parameters; the claim's own are appended.
 */
function claimStatement(event: ContactEvent, due: (params: unknown[]) => string, params: unknown[], attempt: { startedAt: Date; deadlineAt: Date }) {
  const dueSql = due(params);
  params.push(targetOf(event), attempt.startedAt, attempt.deadlineAt);
  const n = params.length;
  return `WITH due AS (${dueSql})
    UPDATE ${CC.name} c
       SET ${CC.c.status} = $${n - 2}, ${CC.c.attempts} = c.${CC.c.attempts} + 1, ${CC.c.attemptSeq} = c.${CC.c.attemptSeq} + 1,
           ${CC.c.attemptStartedAt} = $${n - 1}, ${CC.c.attemptDeadlineAt} = $${n}, ${CC.c.currentCallId} = NULL,
           ${CC.c.nextAttemptAt} = NULL, ${CC.c.updatedAt} = now()
      FROM due WHERE c.${CC.c.id} = due.${CC.c.id}
    RETURNING ${CC.select('c', CLAIMED)}`;
}

/** The engine's reads and writes on campaigns and contacts (one statement each; callers hold the transaction). */
@Injectable()
export class SqlCampaignExecutionRepository extends CampaignExecutionRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async findCampaign(campaignId: string): Promise<ExecutionCampaign | null> {
    if (!isUuid(campaignId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      prepared(`SELECT ${CAMPAIGNS.select(undefined, CAMPAIGN_PROPS)} FROM ${CAMPAIGNS.name} WHERE ${CAMPAIGNS.c.id} = $1`),
      [campaignId],
    );
    return rows[0] ? CAMPAIGNS.fromRow(rows[0], CAMPAIGN_PROPS) : null;
  }

  async lockWorkspace(workspaceId: string): Promise<void> {
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [RESERVATION_LOCK_NAMESPACE, workspaceId]);
  }

  async workspaceLoad(workspaceId: string): Promise<CampaignLoad[]> {
    const C = CAMPAIGNS;
    const params: unknown[] = [workspaceId];
    const inFlight = statusIn(CC.c.status, [IN_FLIGHT_STATUS], params);
    const rows: Array<Row & { in_flight: number; retries_in_flight: number }> = await this.tx.manager.query(
      `SELECT ${C.select('c', ['id', 'status', 'reservedConcurrency', 'allowBurst'])}, COALESCE(f.n, 0)::int AS in_flight,
              COALESCE(f.retries, 0)::int AS retries_in_flight
         FROM ${C.name} c
         LEFT JOIN (SELECT ${CC.c.campaignId}, count(*) AS n, count(*) FILTER (WHERE ${CC.c.attempts} > 1) AS retries FROM ${CC.name}
                     WHERE ${CC.c.workspaceId} = $1 AND ${inFlight} GROUP BY ${CC.c.campaignId}) f ON f.${CC.c.campaignId} = c.${C.c.id}
        WHERE c.${C.c.workspaceId} = $1 AND (c.${C.c.status} = 'RUNNING' OR f.n > 0)`,
      params,
    );
    return rows.map((row) => {
      const { id, ...load } = C.fromRow(row, ['id', 'status', 'reservedConcurrency', 'allowBurst']);
      return { campaignId: id, ...load, inFlight: row.in_flight, retriesInFlight: row.retries_in_flight };
    });
  }

  async claimDue(campaignId: string, input: ClaimInput): Promise<ClaimedContact[]> {
    if (input.limit <= 0 || input.openLocales?.length === 0) return [];
    const cooledBefore = new Date(input.now.getTime() - input.cooldownMs);
    const attempt = { startedAt: input.now, deadlineAt: input.deadlineAt };
    // Recipient hours (decisions.md 28.4): a filter on the same index scan, never an index condition.
    const open = input.openLocales ? ` AND ${LOCALE_KEY} = ANY($5::text[])` : ` AND $5::text[] IS NULL`;
    // Mixed channels (decisions.md 33): a claim per leg, each under its own daily cap; a filter, like the locales.
    const leg = input.leg
      ? ` AND (${CC.c.leg} = $6${input.leg.first ? ` OR ${CC.c.leg} IS NULL` : ''})`
      : ` AND $6::text IS NULL`;
    const cooled = `(${CC.c.lastAttemptAt} IS NULL OR ${CC.c.lastAttemptAt} <= $3)${open}${leg}`;
    const openLocales = input.openLocales ? [...input.openLocales] : null;
    const wantedLeg = input.leg?.wanted ?? null;
    // Two statements, each on its own index (retry_due_idx, pending_idx: 47.14), rather than one OR that
    // would sort every due contact on each claim.
    const claimRetries = async (limit: number): Promise<Row[]> => {
      if (limit <= 0) return [];
      const retryParams: unknown[] = [campaignId, input.now, cooledBefore, limit, openLocales, wantedLeg];
      return this.tx.manager
        .query(
          claimStatement(
            'claimRetry',
            (params) => `SELECT ${CC.c.id} FROM ${CC.name}
              WHERE ${CC.c.campaignId} = $1 AND ${statusIn(CC.c.status, allowedFrom('claimRetry'), params)}
                AND ${CC.c.nextAttemptAt} <= $2 AND ${cooled}
              ORDER BY ${CC.c.nextAttemptAt}, ${CC.c.seq}
              LIMIT $4
              FOR UPDATE SKIP LOCKED`,
            retryParams,
            attempt,
          ),
          retryParams,
        )
        .then(rowsOf);
    };
    // Retries first, up to their share of the lines (retryConcurrencyPercent, decisions.md 35.7)…
    const retryFirst = Math.min(input.limit, input.retryLimit ?? input.limit);
    const retries = await claimRetries(retryFirst);
    const left = input.limit - retries.length;
    const pendingParams: unknown[] = [campaignId, input.now, cooledBefore, left, openLocales, wantedLeg];
    const pending =
      left <= 0
        ? []
        : await this.tx.manager
            .query(
              claimStatement(
                'claim',
                (params) => `SELECT ${CC.c.id} FROM ${CC.name}
                  WHERE ${CC.c.campaignId} = $1 AND ${statusIn(CC.c.status, allowedFrom('claim'), params)}
                    AND $2::timestamptz IS NOT NULL AND ${cooled}
                  ORDER BY ${CC.c.seq}
                  LIMIT $4
                  FOR UPDATE SKIP LOCKED`,
                pendingParams,
                attempt,
              ),
              pendingParams,
            )
            .then(rowsOf);
    // …and the lines first dials leave go to the other due retries.
    const more = retries.length === retryFirst ? await claimRetries(left - pending.length) : [];
    return [...retries, ...pending, ...more].map((row) => CC.fromRow(row, CLAIMED));
  }

  async dueIds(campaignId: string, now: Date, limit: number, locales?: readonly string[] | null): Promise<string[]> {
    if (limit <= 0 || locales?.length === 0) return [];
    const keys = locales ? [...locales] : null;
    // Two reads on the claim's own indexes (retry_due_idx, pending_idx), in the claim's order.
    const retryParams: unknown[] = [campaignId, now, limit, keys];
    const retries: Row[] = await this.tx.manager.query(
      `SELECT ${CC.c.id} FROM ${CC.name}
        WHERE ${CC.c.campaignId} = $1 AND ${statusIn(CC.c.status, allowedFrom('claimRetry'), retryParams)} AND ${CC.c.nextAttemptAt} <= $2
          AND ($4::text[] IS NULL OR ${LOCALE_KEY} = ANY($4::text[]))
        ORDER BY ${CC.c.nextAttemptAt}, ${CC.c.seq} LIMIT $3`,
      retryParams,
    );
    const left = limit - retries.length;
    const pendingParams: unknown[] = [campaignId, left, keys];
    const pending: Row[] =
      left <= 0
        ? []
        : await this.tx.manager.query(
            `SELECT ${CC.c.id} FROM ${CC.name}
              WHERE ${CC.c.campaignId} = $1 AND ${statusIn(CC.c.status, allowedFrom('claim'), pendingParams)}
                AND ($3::text[] IS NULL OR ${LOCALE_KEY} = ANY($3::text[]))
              ORDER BY ${CC.c.seq} LIMIT $2`,
            pendingParams,
          );
    return [...retries, ...pending].map((row) => CC.fromRow(row, ['id']).id);
  }

  async contactCount(campaignId: string): Promise<number> {
    const rows: Array<{ n: number }> = await this.tx.manager.query(
      `SELECT ${CONTACT_COUNT_OF_C} AS n FROM ${CAMPAIGNS.name} c WHERE c.${CAMPAIGNS.c.id} = $1`,
      [campaignId],
    );
    return rows[0]?.n ?? 0;
  }

  async recipientLocales(campaignId: string): Promise<RecipientLocale[]> {
    const params: unknown[] = [campaignId];
    const pending = statusIn(CC.c.status, allowedFrom('claim'), params);
    const retrying = statusIn(CC.c.status, allowedFrom('claimRetry'), params);
    const locale = CC.select(undefined, ['recipientZone', 'recipientRegion']);
    const rows: Row[] = await this.tx.manager.query(
      `SELECT DISTINCT ${locale} FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${pending}
       UNION
       SELECT DISTINCT ${locale} FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${retrying}`,
      params,
    );
    return rows.map(localeOfRow);
  }

  async nextRetryAfter(campaignId: string, now: Date): Promise<Date | null> {
    const params: unknown[] = [campaignId, now];
    const rows: Array<{ at: Date | null }> = await this.tx.manager.query(
      `SELECT min(${CC.c.nextAttemptAt}) AS at FROM ${CC.name}
        WHERE ${CC.c.campaignId} = $1 AND ${statusIn(CC.c.status, allowedFrom('claimRetry'), params)} AND ${CC.c.nextAttemptAt} > $2`,
      params,
    );
    return rows[0]?.at ?? null;
  }

  async dueLocales(campaignId: string, now: Date): Promise<RecipientLocale[]> {
    const params: unknown[] = [campaignId, now];
    const pending = statusIn(CC.c.status, allowedFrom('claim'), params);
    const retrying = statusIn(CC.c.status, allowedFrom('claimRetry'), params);
    const rows: Row[] = await this.tx.manager.query(
      `SELECT DISTINCT ${CC.select(undefined, ['recipientZone', 'recipientRegion'])} FROM ${CC.name}
        WHERE ${CC.c.campaignId} = $1 AND ${pending}
       UNION
       SELECT DISTINCT ${CC.select(undefined, ['recipientZone', 'recipientRegion'])} FROM ${CC.name}
        WHERE ${CC.c.campaignId} = $1 AND ${retrying} AND ${CC.c.nextAttemptAt} <= $2`,
      params,
    );
    return rows.map(localeOfRow);
  }

  async dialsOn(campaignId: string, day: string): Promise<number> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DD.select(undefined, ['dials'])} FROM ${DD.name} WHERE ${DD.c.campaignId} = $1 AND ${DD.c.day} = $2::date`,
      [campaignId, day],
    );
    return rows[0] ? DD.fromRow(rows[0], ['dials']).dials : 0;
  }

  async addDials(campaignId: string, day: string, count: number): Promise<void> {
    if (count === 0) return;
    const { sql, params } = DD.insert(
      { campaignId, day, dials: count, messages: 0 },
      `ON CONFLICT (${DD.c.campaignId}, ${DD.c.day}) DO UPDATE SET ${DD.c.dials} = ${DD.name}.${DD.c.dials} + EXCLUDED.${DD.c.dials}`,
    );
    await this.tx.manager.query(sql, params);
  }

  async messagesOn(campaignId: string, day: string): Promise<number> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DD.select(undefined, ['messages'])} FROM ${DD.name} WHERE ${DD.c.campaignId} = $1 AND ${DD.c.day} = $2::date`,
      [campaignId, day],
    );
    return rows[0] ? DD.fromRow(rows[0], ['messages']).messages : 0;
  }

  async addMessages(campaignId: string, day: string, count: number): Promise<void> {
    if (count === 0) return;
    const { sql, params } = DD.insert(
      { campaignId, day, dials: 0, messages: count },
      `ON CONFLICT (${DD.c.campaignId}, ${DD.c.day}) DO UPDATE SET ${DD.c.messages} = ${DD.name}.${DD.c.messages} + EXCLUDED.${DD.c.messages}`,
    );
    await this.tx.manager.query(sql, params);
  }

  async work(campaignId: string): Promise<CampaignWork> {
    const params: unknown[] = [campaignId];
    const pending = statusIn(CC.c.status, allowedFrom('claim'), params);
    const inFlight = statusIn(CC.c.status, [IN_FLIGHT_STATUS], params);
    const retrying = statusIn(CC.c.status, allowedFrom('claimRetry'), params);
    const rows: Array<{ pending: boolean; in_flight: boolean; next_retry_at: Date | null }> = await this.tx.manager.query(
      `SELECT EXISTS (SELECT 1 FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${pending}) AS pending,
              EXISTS (SELECT 1 FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${inFlight}) AS in_flight,
              (SELECT min(${CC.c.nextAttemptAt}) FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${retrying}) AS next_retry_at`,
      params,
    );
    return { pending: rows[0].pending, inFlight: rows[0].in_flight, nextRetryAt: rows[0].next_retry_at };
  }

  async lockContact(contactId: string): Promise<AttemptContact | null> {
    if (!isUuid(contactId)) return null;
    const lock = this.tx.inTransaction ? ' FOR UPDATE' : '';
    const rows: Row[] = await this.tx.manager.query(
      prepared(`SELECT ${CC.select(undefined, ATTEMPT_CONTACT_FIELDS)} FROM ${CC.name} WHERE ${CC.c.id} = $1${lock}`),
      [contactId],
    );
    return rows[0] ? CC.fromRow(rows[0], ATTEMPT_CONTACT_FIELDS) : null;
  }

  async lockContacts(contactIds: readonly string[]): Promise<AttemptContact[]> {
    const ids = [...new Set(contactIds)].filter(isUuid);
    if (ids.length === 0) return [];
    const lock = this.tx.inTransaction ? ' FOR UPDATE' : '';
    const rows: Row[] = await this.tx.manager.query(
      prepared(`SELECT ${CC.select(undefined, ATTEMPT_CONTACT_FIELDS)} FROM ${CC.name} WHERE ${CC.c.id} = ANY($1::uuid[]) ORDER BY ${CC.c.id}${lock}`),
      [ids],
    );
    return rows.map((row) => CC.fromRow(row, ATTEMPT_CONTACT_FIELDS));
  }

  async markCallStarted(contactId: string, attemptSeq: number, callId: string): Promise<void> {
    await this.tx.manager.query(
      prepared(`UPDATE ${CC.name} SET ${CC.c.currentCallId} = $3, ${CC.c.updatedAt} = now()
        WHERE ${CC.c.id} = $1 AND ${CC.c.attemptSeq} = $2 AND ${CC.c.status} = ANY($4::text[])`),
      [contactId, attemptSeq, callId, [IN_FLIGHT_STATUS]],
    );
  }

  async markCallsStarted(started: ReadonlyArray<{ contactId: string; attemptSeq: number; callId: string }>): Promise<void> {
    if (started.length === 0) return;
    if (started.length === 1) return this.markCallStarted(started[0].contactId, started[0].attemptSeq, started[0].callId);
    await this.tx.manager.query(
      prepared(`UPDATE ${CC.name} c SET ${CC.c.currentCallId} = t.call_id, ${CC.c.updatedAt} = now()
         FROM unnest($1::uuid[], $2::int[], $3::uuid[]) AS t(id, seq, call_id)
        WHERE c.${CC.c.id} = t.id AND c.${CC.c.attemptSeq} = t.seq AND c.${CC.c.status} = ANY($4::text[])`),
      [started.map((s) => s.contactId), started.map((s) => s.attemptSeq), started.map((s) => s.callId), [IN_FLIGHT_STATUS]],
    );
  }

  async recordOutcome(contactId: string, attemptSeq: number, update: AttemptOutcomeUpdate): Promise<boolean> {
    return (await this.recordOutcomes([{ contactId, attemptSeq, update }])).has(contactId);
  }

  async recordOutcomes(outcomes: ReadonlyArray<{ contactId: string; attemptSeq: number; update: AttemptOutcomeUpdate }>): Promise<Set<string>> {
    if (outcomes.length === 0) return new Set();
    const column = <T>(pick: (update: AttemptOutcomeUpdate) => T) => outcomes.map((o) => pick(o.update));
    // UPDATE … RETURNING answers [rows, count] through the pg driver.
    const [rows]: [Array<{ id: string }>, number] = await this.tx.manager.query(
      prepared(`UPDATE ${CC.name} c
          SET ${CC.c.status} = t.target, ${CC.c.nextAttemptAt} = t.next_attempt_at, ${CC.c.lastOutcome} = t.last_outcome, ${CC.c.lastAttemptAt} = t.last_attempt_at,
              ${CC.c.incompleteRetries} = CASE WHEN t.next_number OR t.switch_leg THEN 0 ELSE c.${CC.c.incompleteRetries} + t.incomplete END,
              ${CC.c.phoneIndex} = c.${CC.c.phoneIndex} + CASE WHEN t.next_number THEN 1 ELSE 0 END,
              ${CC.c.connectedPhone} = COALESCE(t.connected_phone, c.${CC.c.connectedPhone}),
              ${CC.c.followups} = c.${CC.c.followups} + CASE WHEN t.sequence = 'followup' THEN 1 ELSE 0 END,
              ${CC.c.churnRounds} = c.${CC.c.churnRounds} + CASE WHEN t.sequence = 'churn' THEN 1 ELSE 0 END,
              ${CC.c.lastTalkMs} = t.talk_ms,
              ${CC.c.leg} = CASE WHEN t.has_leg THEN t.leg ELSE c.${CC.c.leg} END,
              ${CC.c.messageSends} = CASE WHEN t.has_leg THEN t.message_sends ELSE c.${CC.c.messageSends} END,
              ${CC.c.messageTransient} = CASE WHEN t.has_leg THEN t.message_transient ELSE c.${CC.c.messageTransient} END,
              ${CC.c.messageLegAt} = CASE WHEN t.has_leg THEN t.message_leg_at ELSE c.${CC.c.messageLegAt} END,
              ${CC.c.messageOutcome} = CASE WHEN t.has_leg THEN t.message_outcome ELSE c.${CC.c.messageOutcome} END,
              ${CC.c.followupCallId} = CASE WHEN t.has_leg THEN t.followup_call_id ELSE c.${CC.c.followupCallId} END,
              ${CC.c.phoneFirstAttempt} = CASE WHEN t.next_number OR t.switch_leg THEN c.${CC.c.attempts} ELSE c.${CC.c.phoneFirstAttempt} END,
              ${CC.c.attemptDeadlineAt} = NULL, ${CC.c.updatedAt} = now()
         FROM unnest($1::uuid[], $2::int[], $3::text[], $4::timestamptz[], $5::text[], $6::timestamptz[], $7::int[], $8::text[], $9::bool[],
                     $10::text[], $11::text[], $12::int[], $13::bool[], $14::text[], $15::int[], $16::int[], $17::timestamptz[], $18::text[],
                     $19::uuid[], $20::bool[])
              AS t(id, seq, target, next_attempt_at, last_outcome, last_attempt_at, incomplete, allowed, next_number,
                   connected_phone, sequence, talk_ms, has_leg, leg, message_sends, message_transient, message_leg_at, message_outcome,
                   followup_call_id, switch_leg)
        WHERE c.${CC.c.id} = t.id AND c.${CC.c.attemptSeq} = t.seq AND c.${CC.c.status} = ANY(string_to_array(t.allowed, ','))
        RETURNING c.${CC.c.id} AS id`),
      [
        outcomes.map((o) => o.contactId),
        outcomes.map((o) => o.attemptSeq),
        column((u) => targetOf(settlementEvent(u.status))),
        column((u) => u.nextAttemptAt),
        column((u) => u.lastOutcome),
        column((u) => u.lastAttemptAt),
        column((u) => (u.incompleteRetry ? 1 : 0)),
        column((u) => allowedFrom(settlementEvent(u.status)).join(',')),
        column((u) => u.nextNumber),
        column((u) => u.connectedPhone),
        column((u) => u.sequence ?? null),
        column((u) => u.talkMs ?? null),
        column((u) => u.legState !== undefined),
        column((u) => u.legState?.leg ?? null),
        column((u) => u.legState?.messageSends ?? 0),
        column((u) => u.legState?.messageTransient ?? 0),
        column((u) => u.legState?.messageLegAt ?? null),
        column((u) => u.legState?.messageOutcome ?? null),
        column((u) => u.legState?.followupCallId ?? null),
        column((u) => u.legState?.switchLeg === true),
      ],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** `release` on a first attempt (back to PENDING), `releaseRetry` on a later one (due again now). */
  async release(contactId: string, attemptSeq: number, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${CC.name}
          SET ${CC.c.status} = CASE WHEN ${CC.c.attempts} <= 1 THEN $4 ELSE $6 END,
              ${CC.c.nextAttemptAt} = CASE WHEN ${CC.c.attempts} <= 1 THEN NULL ELSE $3::timestamptz END,
              ${CC.c.attempts} = GREATEST(${CC.c.attempts} - 1, 0), ${CC.c.attemptDeadlineAt} = NULL, ${CC.c.updatedAt} = now()
        WHERE ${CC.c.id} = $1 AND ${CC.c.attemptSeq} = $2
          AND CASE WHEN ${CC.c.attempts} <= 1 THEN ${CC.c.status} = ANY($5::text[]) ELSE ${CC.c.status} = ANY($7::text[]) END`,
      [contactId, attemptSeq, now, targetOf('release'), allowedFrom('release'), targetOf('releaseRetry'), allowedFrom('releaseRetry')],
    );
  }

  async skipToNextNumber(contacts: ReadonlyArray<{ id: string; attemptSeq: number }>, now: Date): Promise<void> {
    if (contacts.length === 0) return;
    await this.tx.manager.query(
      `UPDATE ${CC.name} c
          SET ${CC.c.status} = $4, ${CC.c.attempts} = GREATEST(c.${CC.c.attempts} - 1, 0), ${CC.c.lastOutcome} = 'do_not_call',
              ${CC.c.phoneIndex} = c.${CC.c.phoneIndex} + 1, ${CC.c.phoneFirstAttempt} = GREATEST(c.${CC.c.attempts} - 1, 0),
              ${CC.c.incompleteRetries} = 0, ${CC.c.nextAttemptAt} = $3, ${CC.c.attemptDeadlineAt} = NULL, ${CC.c.updatedAt} = now()
         FROM unnest($1::uuid[], $2::int[]) AS t(id, seq)
        WHERE c.${CC.c.id} = t.id AND c.${CC.c.attemptSeq} = t.seq AND c.${CC.c.status} = ANY($5::text[])
          AND c.${CC.c.phoneIndex} < cardinality(c.${CC.c.altPhones})`,
      [contacts.map((c) => c.id), contacts.map((c) => c.attemptSeq), now, targetOf('scheduleRetry'), allowedFrom('scheduleRetry')],
    );
  }

  async markDoNotCall(contacts: ReadonlyArray<{ id: string; attemptSeq: number }>): Promise<void> {
    if (contacts.length === 0) return;
    await this.tx.manager.query(
      `UPDATE ${CC.name} c
          SET ${CC.c.status} = $3, ${CC.c.attempts} = GREATEST(c.${CC.c.attempts} - 1, 0), ${CC.c.lastOutcome} = 'do_not_call',
              ${CC.c.nextAttemptAt} = NULL, ${CC.c.attemptDeadlineAt} = NULL, ${CC.c.updatedAt} = now()
         FROM unnest($1::uuid[], $2::int[]) AS t(id, seq)
        WHERE c.${CC.c.id} = t.id AND c.${CC.c.attemptSeq} = t.seq AND c.${CC.c.status} = ANY($4::text[])`,
      [contacts.map((c) => c.id), contacts.map((c) => c.attemptSeq), targetOf('doNotCall'), allowedFrom('doNotCall')],
    );
  }

  async findStuck(now: Date, limit: number): Promise<Array<{ contactId: string; attemptSeq: number }>> {
    const params: unknown[] = [now, limit];
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CC.select(undefined, ['id', 'attemptSeq'])} FROM ${CC.name}
        WHERE ${statusIn(CC.c.status, [IN_FLIGHT_STATUS], params)} AND ${CC.c.attemptDeadlineAt} < $1
        ORDER BY ${CC.c.attemptDeadlineAt} LIMIT $2`,
      params,
    );
    return rows.map((row) => {
      const { id, attemptSeq } = CC.fromRow(row, ['id', 'attemptSeq']);
      return { contactId: id, attemptSeq };
    });
  }

  async findUndialled(leg: ContactLeg, claimedBefore: Date, limit: number): Promise<Array<{ contactId: string; attemptSeq: number }>> {
    const C = CAMPAIGNS;
    const params: unknown[] = [claimedBefore, limit, leg, channelsStartingWith(leg)];
    // Along the partial deadline index: the IN_PROGRESS rows are the campaigns' lines, few at any time.
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CC.select('c', ['id', 'attemptSeq'])} FROM ${CC.name} c
        WHERE ${statusIn(`c.${CC.c.status}`, [IN_FLIGHT_STATUS], params)} AND c.${CC.c.attemptDeadlineAt} IS NOT NULL
          AND c.${CC.c.currentCallId} IS NULL AND c.${CC.c.attemptStartedAt} < $1
          AND (c.${CC.c.leg} = $3 OR (c.${CC.c.leg} IS NULL AND EXISTS (
                SELECT 1 FROM ${C.name} p WHERE p.${C.c.id} = c.${CC.c.campaignId} AND p.${C.c.channel} = ANY($4::text[]))))
        ORDER BY c.${CC.c.attemptStartedAt} LIMIT $2`,
      params,
    );
    return rows.map((row) => {
      const { id, attemptSeq } = CC.fromRow(row, ['id', 'attemptSeq']);
      return { contactId: id, attemptSeq };
    });
  }

  async findPlacedCalls(claimedBefore: Date, after: PlacedCall | null, limit: number): Promise<PlacedCall[]> {
    const params: unknown[] = [claimedBefore, limit, after?.claimedAt ?? null, after?.contactId ?? null];
    // Along the partial deadline index, as findUndialled: the IN_PROGRESS rows are the lines in use.
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CC.select(undefined, ['id', 'attemptSeq', 'currentCallId', 'attemptStartedAt'])} FROM ${CC.name}
        WHERE ${statusIn(CC.c.status, [IN_FLIGHT_STATUS], params)} AND ${CC.c.attemptDeadlineAt} IS NOT NULL
          AND ${CC.c.currentCallId} IS NOT NULL AND ${CC.c.attemptStartedAt} < $1
          AND ($3::timestamptz IS NULL OR (${CC.c.attemptStartedAt}, ${CC.c.id}) > ($3::timestamptz, $4::uuid))
        ORDER BY ${CC.c.attemptStartedAt}, ${CC.c.id} LIMIT $2`,
      params,
    );
    return rows.map((row) => {
      const { id, attemptSeq, currentCallId, attemptStartedAt } = CC.fromRow(row, ['id', 'attemptSeq', 'currentCallId', 'attemptStartedAt']);
      return { contactId: id, attemptSeq, callId: currentCallId!, claimedAt: attemptStartedAt! };
    });
  }

  async runningCampaignIds(workspaceId?: string): Promise<string[]> {
    const C = CAMPAIGNS;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${C.c.id} FROM ${C.name} WHERE ${C.c.status} = 'RUNNING' AND ($1::uuid IS NULL OR ${C.c.workspaceId} = $1) ORDER BY ${C.c.id}`,
      [workspaceId ?? null],
    );
    return rows.map((row) => C.fromRow(row, ['id']).id);
  }
}

function localeOfRow(row: Row): RecipientLocale {
  const { recipientZone, recipientRegion } = CC.fromRow(row, ['recipientZone', 'recipientRegion']);
  return { zone: recipientZone, region: recipientRegion };
}

/** UPDATE … RETURNING through TypeORM's query() answers [rows, affected]. */
function rowsOf(result: unknown): Row[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Row[];
}

