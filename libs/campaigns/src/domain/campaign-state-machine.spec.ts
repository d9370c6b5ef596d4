import { AppError } from '@outreach/core';
import {
  assertOperationAllowed,
  CAMPAIGN_STATUSES,
  CampaignEvent,
  CampaignOperation,
  CampaignStatus,
  nextStatus,
  refusalsOf,
} from './campaign-state-machine';

const plain = { inbound: false, journey: false };

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

/** Every (status, event) pair: the expected next status, or the refusal code. */
const EXPECTED: Record<CampaignEvent, Record<CampaignStatus, CampaignStatus | string>> = {
  start: {
    DRAFT: 'RUNNING',
    PAUSED: 'RUNNING',
    CREDIT_EXHAUSTED: 'RUNNING',
    RUNNING: 'campaign_not_startable',
    COMPLETED: 'campaign_not_startable',
    CANCELED: 'campaign_not_startable',
  },
  pause: {
    RUNNING: 'PAUSED',
    DRAFT: 'campaign_not_running',
    PAUSED: 'campaign_not_running',
    CREDIT_EXHAUSTED: 'campaign_not_running',
    COMPLETED: 'campaign_not_running',
    CANCELED: 'campaign_not_running',
  },
  resume: {
    PAUSED: 'RUNNING',
    DRAFT: 'campaign_not_paused',
    RUNNING: 'campaign_not_paused',
    CREDIT_EXHAUSTED: 'campaign_not_paused',
    COMPLETED: 'campaign_not_paused',
    CANCELED: 'campaign_not_paused',
  },
  stop: {
    DRAFT: 'CANCELED',
    RUNNING: 'CANCELED',
    PAUSED: 'CANCELED',
    CREDIT_EXHAUSTED: 'CANCELED',
    COMPLETED: 'campaign_already_terminal',
    CANCELED: 'campaign_already_terminal',
  },
  reopen: {
    COMPLETED: 'RUNNING',
    DRAFT: 'campaign_not_reengageable',
    RUNNING: 'campaign_not_reengageable',
    PAUSED: 'campaign_not_reengageable',
    CREDIT_EXHAUSTED: 'campaign_not_reengageable',
    CANCELED: 'campaign_not_reengageable',
  },
  restart: {
    COMPLETED: 'RUNNING',
    CANCELED: 'RUNNING',
    DRAFT: 'campaign_not_restartable',
    RUNNING: 'campaign_not_restartable',
    PAUSED: 'campaign_not_restartable',
    CREDIT_EXHAUSTED: 'campaign_not_restartable',
  },
  complete: {
    RUNNING: 'COMPLETED',
    DRAFT: 'campaign_not_running',
    PAUSED: 'campaign_not_running',
    CREDIT_EXHAUSTED: 'campaign_not_running',
    COMPLETED: 'campaign_not_running',
    CANCELED: 'campaign_not_running',
  },
  exhaustCredit: {
    RUNNING: 'CREDIT_EXHAUSTED',
    DRAFT: 'campaign_not_running',
    PAUSED: 'campaign_not_running',
    CREDIT_EXHAUSTED: 'campaign_not_running',
    COMPLETED: 'campaign_not_running',
    CANCELED: 'campaign_not_running',
  },
};

const cases = (Object.keys(EXPECTED) as CampaignEvent[]).flatMap((event) =>
  CAMPAIGN_STATUSES.map((status) => [event, status, EXPECTED[event][status]] as const),
);

describe('campaign transition table', () => {
  it.each(cases)('%s from %s → %s', (event, status, expected) => {
    if ((CAMPAIGN_STATUSES as readonly string[]).includes(expected)) {
      expect(nextStatus(status, event, plain)).toBe(expected);
    } else {
      expect(codeOf(() => nextStatus(status, event, plain))).toBe(expected);
    }
  });

  it('INBOUND campaigns reject pause, resume and restart whatever their status', () => {
    const inbound = { inbound: true, journey: false };
    for (const status of CAMPAIGN_STATUSES) {
      for (const event of ['pause', 'resume', 'restart'] as const) {
        expect(codeOf(() => nextStatus(status, event, inbound))).toBe('inbound_campaign_action_not_supported');
      }
    }
    expect(nextStatus('DRAFT', 'start', inbound)).toBe('RUNNING');
    expect(nextStatus('RUNNING', 'stop', inbound)).toBe('CANCELED');
  });

  it('journey campaigns reject restart only (and contact retry), not the other events', () => {
    const journey = { inbound: false, journey: true };
    expect(codeOf(() => nextStatus('CANCELED', 'restart', journey))).toBe('journey_campaign_action_unsupported');
    expect(nextStatus('RUNNING', 'pause', journey)).toBe('PAUSED');
    expect(nextStatus('PAUSED', 'resume', journey)).toBe('RUNNING');
    expect(codeOf(() => assertOperationAllowed('RUNNING', 'retryContact', journey))).toBe('journey_campaign_action_unsupported');
  });
});

/** Every (status, operation) pair: allowed (null) or the refusal code. */
const OPERATIONS: Record<CampaignOperation, Record<CampaignStatus, string | null>> = {
  edit: {
    DRAFT: null,
    PAUSED: null,
    CREDIT_EXHAUSTED: null,
    RUNNING: 'campaign_not_draft',
    COMPLETED: 'campaign_not_draft',
    CANCELED: 'campaign_not_draft',
  },
  editAudience: {
    DRAFT: null,
    PAUSED: 'campaign_not_draft',
    CREDIT_EXHAUSTED: 'campaign_not_draft',
    RUNNING: 'campaign_not_draft',
    COMPLETED: 'campaign_not_draft',
    CANCELED: 'campaign_not_draft',
  },
  replaceCustomKeys: {
    DRAFT: null,
    PAUSED: 'campaign_not_draft',
    CREDIT_EXHAUSTED: 'campaign_not_draft',
    RUNNING: 'campaign_not_draft',
    COMPLETED: 'campaign_not_draft',
    CANCELED: 'campaign_not_draft',
  },
  addContacts: {
    DRAFT: null,
    PAUSED: 'campaign_not_in_draft',
    CREDIT_EXHAUSTED: 'campaign_not_in_draft',
    RUNNING: 'campaign_not_in_draft',
    COMPLETED: 'campaign_not_in_draft',
    CANCELED: 'campaign_not_in_draft',
  },
  delete: {
    DRAFT: null,
    CANCELED: null,
    COMPLETED: null,
    RUNNING: 'campaign_delete_active',
    PAUSED: 'campaign_delete_active',
    CREDIT_EXHAUSTED: 'campaign_delete_active',
  },
  detachPhoneNumber: {
    DRAFT: null,
    PAUSED: null,
    CREDIT_EXHAUSTED: null,
    COMPLETED: null,
    CANCELED: null,
    RUNNING: 'campaign_running_no_remove',
  },
  reengage: {
    RUNNING: null,
    PAUSED: null,
    CREDIT_EXHAUSTED: null,
    COMPLETED: null,
    DRAFT: 'campaign_not_reengageable',
    CANCELED: 'campaign_not_reengageable',
  },
  finishInterrupted: {
    RUNNING: null,
    PAUSED: null,
    CREDIT_EXHAUSTED: null,
    COMPLETED: null,
    DRAFT: 'campaign_not_reengageable',
    CANCELED: 'campaign_not_reengageable',
  },
  retryContact: {
    RUNNING: null,
    PAUSED: null,
    CREDIT_EXHAUSTED: null,
    DRAFT: 'campaign_not_active',
    COMPLETED: 'campaign_not_active',
    CANCELED: 'campaign_not_active',
  },
  editSchedule: {
    DRAFT: null,
    RUNNING: null,
    PAUSED: null,
    CREDIT_EXHAUSTED: null,
    COMPLETED: 'campaign_not_editable',
    CANCELED: 'campaign_not_editable',
  },
  editOutreach: {
    DRAFT: null,
    RUNNING: null,
    PAUSED: null,
    CREDIT_EXHAUSTED: null,
    COMPLETED: 'campaign_not_editable',
    CANCELED: 'campaign_not_editable',
  },
  editMetrics: {
    DRAFT: null,
    RUNNING: null,
    PAUSED: null,
    CREDIT_EXHAUSTED: null,
    COMPLETED: 'campaign_not_editable',
    CANCELED: 'campaign_not_editable',
  },
  remessage: {
    RUNNING: null,
    DRAFT: 'campaign_not_running',
    PAUSED: 'campaign_not_running',
    CREDIT_EXHAUSTED: 'campaign_not_running',
    COMPLETED: 'campaign_not_running',
    CANCELED: 'campaign_not_running',
  },
};

const operationCases = (Object.keys(OPERATIONS) as CampaignOperation[]).flatMap((operation) =>
  CAMPAIGN_STATUSES.map((status) => [operation, status, OPERATIONS[operation][status]] as const),
);

describe('status-preserving operations', () => {
  it.each(operationCases)('%s on %s → %s', (operation, status, expected) => {
    expect(codeOf(() => assertOperationAllowed(status, operation, plain))).toBe(expected);
  });

  it('INBOUND campaigns refuse outreach edits and remessage (their schedule and metrics can change)', () => {
    const inbound = { inbound: true, journey: false };
    expect(codeOf(() => assertOperationAllowed('RUNNING', 'editOutreach', inbound))).toBe('inbound_campaign_action_not_supported');
    expect(codeOf(() => assertOperationAllowed('RUNNING', 'remessage', inbound))).toBe('inbound_campaign_action_not_supported');
    expect(codeOf(() => assertOperationAllowed('RUNNING', 'editSchedule', inbound))).toBeNull();
    expect(codeOf(() => assertOperationAllowed('RUNNING', 'editMetrics', inbound))).toBeNull();
  });

  it('INBOUND campaigns take no uploaded contacts', () => {
    expect(codeOf(() => assertOperationAllowed('DRAFT', 'addContacts', { inbound: true, journey: false }))).toBe(
      'inbound_campaign_action_not_supported',
    );
  });

  it('INBOUND campaigns are neither re-engaged nor finish-interrupted, in any status (decisions.md 35.1)', () => {
    for (const status of CAMPAIGN_STATUSES) {
      for (const operation of ['reengage', 'finishInterrupted'] as const) {
        expect(codeOf(() => assertOperationAllowed(status, operation, { inbound: true, journey: false }))).toBe('inbound_campaign_action_not_supported');
      }
    }
  });
});

describe('refusalsOf (what the routes document)', () => {
  it('holds every code nextStatus and assertOperationAllowed answer, for every status and kind', () => {
    const kinds = [plain, { inbound: true, journey: false }, { inbound: false, journey: true }];
    const events: CampaignEvent[] = ['start', 'pause', 'resume', 'stop', 'restart', 'reopen'];
    const operations = Object.keys(OPERATIONS) as CampaignOperation[];
    for (const kind of kinds) {
      for (const status of CAMPAIGN_STATUSES) {
        for (const e of events) {
          const code = codeOf(() => nextStatus(status, e, kind));
          if (code) expect(refusalsOf(e)).toContain(code);
        }
        for (const o of operations) {
          const code = codeOf(() => assertOperationAllowed(status, o, kind));
          if (code) expect(refusalsOf(o)).toContain(code);
        }
      }
    }
    expect(refusalsOf('restart')).toEqual(['inbound_campaign_action_not_supported', 'journey_campaign_action_unsupported', 'campaign_not_restartable']);
  });
});
