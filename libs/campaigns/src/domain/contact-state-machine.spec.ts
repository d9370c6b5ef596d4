import { AppError } from '@outreach/core';
import { assertContactRetryable } from './contact';
import {
  allowedFrom,
  canTransition,
  CONTACT_EVENTS,
  CONTACT_STATUSES,
  CONTACT_TRANSITIONS,
  ContactEvent,
  ContactStatus,
  FINAL_CONTACT_STATUSES,
  IN_FLIGHT_STATUS,
  settlementEvent,
  targetOf,
  transition,
  WORK_LEFT_STATUSES,
} from './contact-state-machine';

/** Every (status, event) pair: the status the event leads to, or null when it is not allowed. */
const EXPECTED: Record<ContactEvent, Record<ContactStatus, ContactStatus | null>> = {
  claim: { PENDING: 'IN_PROGRESS', IN_PROGRESS: null, RETRY_SCHEDULED: null, COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  claimRetry: { PENDING: null, IN_PROGRESS: null, RETRY_SCHEDULED: 'IN_PROGRESS', COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  complete: { PENDING: null, IN_PROGRESS: 'COMPLETED', RETRY_SCHEDULED: null, COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  fail: { PENDING: null, IN_PROGRESS: 'FAILED', RETRY_SCHEDULED: null, COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  scheduleRetry: { PENDING: null, IN_PROGRESS: 'RETRY_SCHEDULED', RETRY_SCHEDULED: null, COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  release: { PENDING: null, IN_PROGRESS: 'PENDING', RETRY_SCHEDULED: null, COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  releaseRetry: { PENDING: null, IN_PROGRESS: 'RETRY_SCHEDULED', RETRY_SCHEDULED: null, COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  doNotCall: { PENDING: null, IN_PROGRESS: 'DO_NOT_CALL', RETRY_SCHEDULED: null, COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  retry: { PENDING: null, IN_PROGRESS: null, RETRY_SCHEDULED: null, COMPLETED: null, FAILED: 'PENDING', DO_NOT_CALL: null, HAND_OFF: null },
  restart: { PENDING: 'PENDING', IN_PROGRESS: null, RETRY_SCHEDULED: 'PENDING', COMPLETED: null, FAILED: 'PENDING', DO_NOT_CALL: null, HAND_OFF: null },
  handOff: { PENDING: 'HAND_OFF', IN_PROGRESS: null, RETRY_SCHEDULED: 'HAND_OFF', COMPLETED: 'HAND_OFF', FAILED: 'HAND_OFF', DO_NOT_CALL: null, HAND_OFF: null },
  reengage: { PENDING: null, IN_PROGRESS: null, RETRY_SCHEDULED: null, COMPLETED: 'PENDING', FAILED: 'PENDING', DO_NOT_CALL: null, HAND_OFF: null },
  answerInbound: { PENDING: 'IN_PROGRESS', IN_PROGRESS: null, RETRY_SCHEDULED: 'IN_PROGRESS', COMPLETED: 'IN_PROGRESS', FAILED: 'IN_PROGRESS', DO_NOT_CALL: 'IN_PROGRESS', HAND_OFF: null },
  journeyPark: { PENDING: 'RETRY_SCHEDULED', IN_PROGRESS: null, RETRY_SCHEDULED: null, COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  journeyEnd: { PENDING: 'COMPLETED', IN_PROGRESS: null, RETRY_SCHEDULED: 'COMPLETED', COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
  journeyFail: { PENDING: 'FAILED', IN_PROGRESS: null, RETRY_SCHEDULED: 'FAILED', COMPLETED: null, FAILED: null, DO_NOT_CALL: null, HAND_OFF: null },
};

const PAIRS = CONTACT_EVENTS.flatMap((event) => CONTACT_STATUSES.map((status) => [status, event, EXPECTED[event][status]] as const));

describe('contact state machine', () => {
  it('lists every event of the table in the expectations, and every status for each', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...CONTACT_EVENTS].sort());
    for (const event of CONTACT_EVENTS) expect(Object.keys(EXPECTED[event]).sort()).toEqual([...CONTACT_STATUSES].sort());
    expect(PAIRS).toHaveLength(CONTACT_STATUSES.length * CONTACT_EVENTS.length);
  });

  it.each(PAIRS)('%s --%s--> %s', (status, event, expected) => {
    expect(transition(status, event)).toBe(expected);
    expect(canTransition(status, event)).toBe(expected !== null);
    expect(allowedFrom(event).includes(status)).toBe(expected !== null);
    if (expected !== null) expect(targetOf(event)).toBe(expected);
  });

  it('allowedFrom and targetOf read the table', () => {
    for (const event of CONTACT_EVENTS) {
      expect(allowedFrom(event)).toBe(CONTACT_TRANSITIONS[event].from);
      expect(targetOf(event)).toBe(CONTACT_TRANSITIONS[event].to);
    }
  });

  it('names the in-flight status, the settlement events and the final statuses', () => {
    expect(IN_FLIGHT_STATUS).toBe('IN_PROGRESS');
    expect(settlementEvent('COMPLETED')).toBe('complete');
    expect(settlementEvent('FAILED')).toBe('fail');
    expect(settlementEvent('RETRY_SCHEDULED')).toBe('scheduleRetry');
    expect(() => settlementEvent('PENDING')).toThrow('cannot settle to PENDING');
    expect(FINAL_CONTACT_STATUSES).toEqual(['COMPLETED', 'FAILED', 'DO_NOT_CALL', 'HAND_OFF']);
  });

  it.each(CONTACT_STATUSES)('a manual retry of a %s contact is allowed only from FAILED', (status) => {
    if (status === 'FAILED') {
      expect(() => assertContactRetryable(status)).not.toThrow();
      return;
    }
    let code: string | null = null;
    try {
      assertContactRetryable(status);
    } catch (error) {
      code = error instanceof AppError ? error.code : 'other';
    }
    expect(code).toBe('contact_not_failed');
  });
});

describe('WORK_LEFT_STATUSES', () => {
  it('are the statuses the dispatcher may still claim from: a first dial or a due retry', () => {
    expect([...WORK_LEFT_STATUSES].sort()).toEqual(['PENDING', 'RETRY_SCHEDULED']);
  });
});
