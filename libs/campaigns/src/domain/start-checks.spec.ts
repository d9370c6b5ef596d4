import { AppError } from '@outreach/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertStartChecks, START_CHECK_CODES, START_CHECKS, StartFacts } from './start-checks';

const NOW = new Date('2026-11-21T10:00:00Z');

/** Facts under which a VOICE CSV campaign starts. */
function ready(): StartFacts {
  return {
    now: NOW,
    workspace: { status: 'ACTIVE', activityFrozen: false, trialUntil: null, concurrency: 10 },
    walletBalanceMinor: 1000,
    campaign: { channel: 'VOICE', source: 'CSV', scheduledEndAt: null, agentId: 'a', workflowId: null },
    agent: { status: 'ACTIVE', agentType: 'OUTBOUND' },
    whatsapp: { hasSender: true, template: 'ready' },
    email: { hasSender: true, hasTemplate: true },
    workflowStatus: null,
    usablePhoneNumbers: 1,
    contactsWithWorkLeft: 3,
    totalContacts: 3,
    requestedConcurrency: 2,
    reservedByOthers: 0,
  };
}

function failure(facts: StartFacts): string | null {
  try {
    assertStartChecks(facts);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

type Tweak = (f: StartFacts) => void;

/** Each failing condition alone, in decisions.md 12.4 order, with its code. */
const FAILURES: Array<[string, Tweak]> = [
  ['workspace_not_active', (f) => (f.workspace.status = 'INACTIVE')],
  ['activity_frozen', (f) => (f.workspace.activityFrozen = true)],
  ['insufficient_credits', (f) => (f.walletBalanceMinor = 0)],
  ['campaign_schedule_expired', (f) => (f.campaign.scheduledEndAt = new Date(NOW.getTime() - 1))],
  ['campaign_channel_needs_agent', (f) => (f.campaign.agentId = null)],
  ['agent_not_found_or_not_provisioned', (f) => (f.agent = { status: 'PROVISIONING', agentType: 'OUTBOUND' })],
  ['campaign_channel_needs_sender', (f) => ((f.campaign.channel = 'WHATSAPP'), (f.whatsapp.hasSender = false))],
  ['campaign_channel_needs_template', (f) => ((f.campaign.channel = 'WHATSAPP'), (f.whatsapp.template = 'missing'))],
  ['outreach_template_not_approved', (f) => ((f.campaign.channel = 'WHATSAPP'), (f.whatsapp.template = 'not_approved'))],
  [
    'outreach_template_needs_runtime_context',
    (f) => ((f.campaign.channel = 'WHATSAPP'), (f.whatsapp.template = 'needs_runtime_context')),
  ],
  ['campaign_channel_needs_email_sender', (f) => ((f.campaign.channel = 'EMAIL'), (f.email.hasSender = false))],
  ['campaign_channel_needs_email_template', (f) => ((f.campaign.channel = 'EMAIL'), (f.email.hasTemplate = false))],
  ['campaign_channel_needs_workflow', (f) => (f.campaign.channel = 'CUSTOM')],
  ['campaign_workflow_not_active', (f) => ((f.campaign.workflowId = 'w'), (f.workflowStatus = 'DRAFT'))],
  ['campaign_no_phone_numbers', (f) => (f.usablePhoneNumbers = 0)],
  ['campaign_no_pending_contacts', (f) => (f.contactsWithWorkLeft = 0)],
  [
    'campaign_is_inbound_misconfigured',
    (f) => ((f.campaign.source = 'API'), (f.agent = { status: 'ACTIVE', agentType: 'INBOUND' }), (f.totalContacts = 0), (f.contactsWithWorkLeft = 0)),
  ],
  ['invalid_reserved_concurrency', (f) => (f.requestedConcurrency = 11)],
  ['reserved_exceeds_allocation', (f) => (f.reservedByOthers = 9)],
];

describe('start checks (decisions.md 12.4)', () => {
  it('pass for a ready campaign', () => {
    expect(failure(ready())).toBeNull();
  });

  it.each(FAILURES)('%s', (code, tweak) => {
    const facts = ready();
    tweak(facts);
    expect(failure(facts)).toBe(code);
  });

  it('report the first failing check when several fail (the order of decisions.md 12.4)', () => {
    const facts = ready();
    facts.requestedConcurrency = 0;
    facts.contactsWithWorkLeft = 0;
    facts.usablePhoneNumbers = 0;
    facts.agent = null;
    facts.campaign.scheduledEndAt = NOW;
    facts.walletBalanceMinor = -5;
    facts.workspace.activityFrozen = true;
    facts.workspace.status = 'INACTIVE';
    const answers: string[] = [];
    const fixes: Tweak[] = [
      (f) => (f.workspace.status = 'ACTIVE'),
      (f) => (f.workspace.activityFrozen = false),
      (f) => (f.walletBalanceMinor = 1),
      (f) => (f.campaign.scheduledEndAt = null),
      (f) => (f.agent = { status: 'ACTIVE', agentType: 'OUTBOUND' }),
      (f) => (f.usablePhoneNumbers = 2),
      (f) => (f.contactsWithWorkLeft = 1),
      (f) => (f.requestedConcurrency = 1),
    ];
    for (const fix of fixes) {
      answers.push(failure(facts)!);
      fix(facts);
    }
    expect(answers).toEqual([
      'workspace_not_active',
      'activity_frozen',
      'insufficient_credits',
      'campaign_schedule_expired',
      'agent_not_found_or_not_provisioned',
      'campaign_no_phone_numbers',
      'campaign_no_pending_contacts',
      'invalid_reserved_concurrency',
    ]);
    expect(failure(facts)).toBeNull();
  });

  it('an active trial covers an empty wallet; an expired one does not', () => {
    const facts = ready();
    facts.walletBalanceMinor = 0;
    facts.workspace.trialUntil = new Date(NOW.getTime() + 60_000);
    expect(failure(facts)).toBeNull();
    facts.workspace.trialUntil = new Date(NOW.getTime());
    expect(failure(facts)).toBe('insufficient_credits');
  });

  it('reservedConcurrency must be 1..allocation, and fit next to the running campaigns', () => {
    for (const bad of [0, -1, 1.5, 11]) {
      const facts = ready();
      facts.requestedConcurrency = bad;
      expect(failure(facts)).toBe('invalid_reserved_concurrency');
    }
    const facts = ready();
    facts.requestedConcurrency = 10;
    expect(failure(facts)).toBeNull();
    facts.reservedByOthers = 1;
    expect(failure(facts)).toBe('reserved_exceeds_allocation');
  });

  it('API and CRM_WEBHOOK campaigns need no contacts to start; non-voice channels need no numbers or agent', () => {
    const api = ready();
    api.campaign.source = 'API';
    api.contactsWithWorkLeft = 0;
    api.totalContacts = 0;
    expect(failure(api)).toBeNull();
    const whatsapp = ready();
    whatsapp.campaign.channel = 'WHATSAPP';
    whatsapp.campaign.agentId = null;
    whatsapp.agent = null;
    whatsapp.usablePhoneNumbers = 0;
    expect(failure(whatsapp)).toBeNull();
  });

  it('lists one check per code, each named', () => {
    expect(START_CHECKS.length).toBeGreaterThanOrEqual(13);
    expect(START_CHECKS.every((c) => c.name.length > 0)).toBe(true);
  });
});

describe('START_CHECK_CODES (what the start routes document)', () => {
  it('lists exactly the codes the checks can fail with', () => {
    const source = readFileSync(join(__dirname, 'start-checks.ts'), 'utf8');
    const failed = new Set([...source.matchAll(/fail\(\s*'([a-z_]+)'/g)].map((m) => m[1]));
    expect([...START_CHECK_CODES].sort()).toEqual([...failed].sort());
  });
});

describe('start checks of an INBOUND campaign (decisions.md 36.2)', () => {
  const AGENT = { id: 'a', status: 'ACTIVE', agentType: 'INBOUND' };
  function inbound(): StartFacts {
    const f = ready();
    f.campaign.source = 'INBOUND';
    f.agent = { status: 'ACTIVE', agentType: 'INBOUND' };
    f.usablePhoneNumbers = 0;
    f.contactsWithWorkLeft = 0;
    f.totalContacts = 0;
    f.inbound = { attached: false, missing: 0, agentNumbers: 1, numbers: [{ id: 'n1', usable: true, agent: { ...AGENT }, liveCampaignId: null }] };
    return f;
  }

  it("pass with the agent's one usable number: no contacts, no outbound caller ids needed", () => {
    expect(failure(inbound())).toBeNull();
  });

  it.each<[string, Tweak]>([
    ['inbound_agent_has_no_number', (f) => ((f.inbound!.agentNumbers = 0), (f.inbound!.numbers = []))],
    ['inbound_agent_has_many_numbers', (f) => (f.inbound!.agentNumbers = 2)],
    ['inbound_did_unavailable', (f) => (f.inbound!.numbers[0].usable = false)],
    ['inbound_did_unavailable', (f) => ((f.inbound!.attached = true), (f.inbound!.missing = 1))],
    ['inbound_did_unavailable', (f) => (f.inbound = null)],
    ['inbound_did_has_no_agent', (f) => (f.inbound!.numbers[0].agent = null)],
    ['inbound_did_has_no_agent', (f) => (f.inbound!.numbers[0].agent = { ...AGENT, status: 'PROVISIONING' })],
    ['inbound_did_has_no_agent', (f) => (f.inbound!.numbers[0].agent = { ...AGENT, agentType: 'OUTBOUND' })],
    ['inbound_did_has_no_agent', (f) => (f.inbound!.numbers[0].agent = { ...AGENT, id: 'another' })],
    ['inbound_did_already_in_campaign', (f) => (f.inbound!.numbers[0].liveCampaignId = 'c2')],
  ])('%s', (code, tweak) => {
    const facts = inbound();
    tweak(facts);
    expect(failure(facts)).toBe(code);
  });

  it('attached numbers win over the agent\'s count: several attached numbers all answer', () => {
    const facts = inbound();
    facts.inbound = { attached: true, missing: 0, agentNumbers: 3, numbers: [facts.inbound!.numbers[0], { ...facts.inbound!.numbers[0], id: 'n2' }] };
    expect(failure(facts)).toBeNull();
  });

  it('an outbound campaign with an INBOUND agent and no contacts stays campaign_is_inbound_misconfigured', () => {
    const facts = inbound();
    facts.campaign.source = 'API';
    facts.usablePhoneNumbers = 1;
    expect(failure(facts)).toBe('campaign_is_inbound_misconfigured');
  });
});
