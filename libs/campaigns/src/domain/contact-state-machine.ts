/**
 * A campaign contact's status. PENDING waits for its first dial; IN_PROGRESS has an attempt in
 * flight; RETRY_SCHEDULED waits for its next attempt; COMPLETED, FAILED and DO_NOT_CALL are final
 * (only a manual retry or a campaign restart takes a contact out of them). HAND_OFF: an outreach
 * rule handed the contact to a person (decisions.md 34.4); no automated leg reaches it again, and
 * neither a retry nor a restart takes it back.
 */
export const CONTACT_STATUSES = ['PENDING', 'IN_PROGRESS', 'RETRY_SCHEDULED', 'COMPLETED', 'FAILED', 'DO_NOT_CALL', 'HAND_OFF'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/** Events that move a contact to another status. */
export type ContactEvent =
  | 'claim'
  | 'claimRetry'
  | 'complete'
  | 'fail'
  | 'scheduleRetry'
  | 'release'
  | 'releaseRetry'
  | 'doNotCall'
  | 'retry'
  | 'restart'
  | 'reengage'
  | 'handOff'
  | 'answerInbound'
  | 'journeyPark'
  | 'journeyEnd'
  | 'journeyFail';

export interface ContactTransition {
  from: readonly ContactStatus[];
  to: ContactStatus;
}

/**
 * THE contact transition table. Every statement that changes a contact's status takes its
 * allowed from-statuses and its target status from here (`status = ANY($n::text[])`), so a new
 * status or a new way between two statuses is one edit to this table.
 */
export const CONTACT_TRANSITIONS: Readonly<Record<ContactEvent, ContactTransition>> = {
  // The dispatcher claims a contact for an attempt (FOR UPDATE SKIP LOCKED): a first dial…
  claim: { from: ['PENDING'], to: 'IN_PROGRESS' },
  // …or a retry whose next_attempt_at has come.
  claimRetry: { from: ['RETRY_SCHEDULED'], to: 'IN_PROGRESS' },
  // The attempt settles (engine's retry policy picks which).
  complete: { from: ['IN_PROGRESS'], to: 'COMPLETED' },
  fail: { from: ['IN_PROGRESS'], to: 'FAILED' },
  scheduleRetry: { from: ['IN_PROGRESS'], to: 'RETRY_SCHEDULED' },
  // An attempt that never dialled is given back, the attempt not counted (a worker gave up before
  // dialling, or the reaper found it past its deadline without a call): a contact on its first
  // attempt is PENDING again, a later one is due again at once. A reaped attempt whose call had
  // started settles instead (its call ends as carrier_failure: scheduleRetry or fail).
  release: { from: ['IN_PROGRESS'], to: 'PENDING' },
  releaseRetry: { from: ['IN_PROGRESS'], to: 'RETRY_SCHEDULED' },
  // The number is on the do-not-call list: the claimed attempt does not dial.
  doNotCall: { from: ['IN_PROGRESS'], to: 'DO_NOT_CALL' },
  // POST …/contacts/{id}/retry: one FAILED contact back to the queue with fresh attempts (else 400 contact_not_failed).
  retry: { from: ['FAILED'], to: 'PENDING' },
  // Campaign restart: FAILED and unreached contacts start over with fresh attempts. IN_PROGRESS
  // keeps its attempt: its call may still be live, and resetting it would let the dispatcher dial
  // the same person again at the same time; the attempt settles (or is reaped) as usual.
  restart: { from: ['FAILED', 'PENDING', 'RETRY_SCHEDULED'], to: 'PENDING' },
  // POST …/re-engage {segment} and POST …/finish-interrupted: finished contacts of a segment start a
  // fresh run (decisions.md 35.1, 35.2). DO_NOT_CALL is never re-engaged.
  reengage: { from: ['COMPLETED', 'FAILED'], to: 'PENDING' },
  // An outreach rule's HAND_OFF (a reply judged by the campaign's rules, decisions.md 34.4): the
  // contact's automated legs end, waiting or done. Not from IN_PROGRESS: the attempt in flight
  // settles first (the hand-off waits for it); not from DO_NOT_CALL (nothing automated is left).
  handOff: { from: ['PENDING', 'RETRY_SCHEDULED', 'COMPLETED', 'FAILED'], to: 'HAND_OFF' },
  // An INBOUND campaign answers the contact's call (decisions.md 36.3): a new caller, or one who
  // called before, has an attempt in flight. A caller whose earlier call is still IN_PROGRESS keeps
  // it: the second call is recorded and billed, the contact untouched (a stale attempt).
  answerInbound: { from: ['PENDING', 'RETRY_SCHEDULED', 'COMPLETED', 'FAILED', 'DO_NOT_CALL'], to: 'IN_PROGRESS' },
  // Journey campaigns (channel CUSTOM, decisions.md 37.12): a contact whose run starts is parked —
  // RETRY_SCHEDULED with no next_attempt_at and no leg, never claimed — until a call step of its run
  // makes it due (leg VOICE, next_attempt_at now); its call settles back to the parked state…
  journeyPark: { from: ['PENDING'], to: 'RETRY_SCHEDULED' },
  // …and the run's end makes it final (DONE → COMPLETED, FAILED/CANCELED → FAILED).
  journeyEnd: { from: ['PENDING', 'RETRY_SCHEDULED'], to: 'COMPLETED' },
  journeyFail: { from: ['PENDING', 'RETRY_SCHEDULED'], to: 'FAILED' },
};

export const CONTACT_EVENTS = Object.keys(CONTACT_TRANSITIONS) as ContactEvent[];

/**
 * Events that are not the engine's: a person's retry, restart or re-engage (a route), an outreach
 * rule's hand-off, and a caller's next inbound call. All but the hand-off take a contact out of a
 * final status.
 */
export const NON_ENGINE_CONTACT_EVENTS: readonly ContactEvent[] = ['retry', 'restart', 'reengage', 'handOff', 'answerInbound'];

/**
 * Contacts with work left: those the dispatcher may still claim (a first dial or a retry). Start
 * and resume need at least one for list-sourced campaigns (400 campaign_no_pending_contacts): a
 * paused campaign whose remaining contacts all wait for a retry has work left (decisions.md 12.12).
 */
export const WORK_LEFT_STATUSES: readonly ContactStatus[] = [...new Set([...CONTACT_TRANSITIONS.claim.from, ...CONTACT_TRANSITIONS.claimRetry.from])];

/** The statuses `event` may leave from. */
export function allowedFrom(event: ContactEvent): readonly ContactStatus[] {
  return CONTACT_TRANSITIONS[event].from;
}

/** The status `event` leads to. */
export function targetOf(event: ContactEvent): ContactStatus {
  return CONTACT_TRANSITIONS[event].to;
}

export function canTransition(from: ContactStatus, event: ContactEvent): boolean {
  return CONTACT_TRANSITIONS[event].from.includes(from);
}

/** The status `event` leads to from `from`, or null when the table does not allow it. */
export function transition(from: ContactStatus, event: ContactEvent): ContactStatus | null {
  return canTransition(from, event) ? CONTACT_TRANSITIONS[event].to : null;
}

/** The status of a contact whose attempt is in flight: where a claim leaves it. */
export const IN_FLIGHT_STATUS: ContactStatus = CONTACT_TRANSITIONS.claim.to;

/** How an attempt can settle: the engine's retry policy names the target status, this finds its event. */
export type SettlementEvent = Extract<ContactEvent, 'complete' | 'fail' | 'scheduleRetry'>;
const SETTLEMENT_EVENTS: readonly SettlementEvent[] = ['complete', 'fail', 'scheduleRetry'];

export function settlementEvent(to: ContactStatus): SettlementEvent {
  const event = SETTLEMENT_EVENTS.find((e) => CONTACT_TRANSITIONS[e].to === to);
  if (!event) throw new Error(`an attempt cannot settle to ${to}`);
  return event;
}

/** Statuses no engine event leaves: the contact is done until a manual retry, a restart, a re-engage or their next inbound call. */
export const FINAL_CONTACT_STATUSES: readonly ContactStatus[] = CONTACT_STATUSES.filter((status) =>
  CONTACT_EVENTS.every((event) => NON_ENGINE_CONTACT_EVENTS.includes(event) || !canTransition(status, event)),
);
