import { AppError } from '@outreach/core';
import { Campaign, CampaignDraft, CampaignRuleContext } from './campaign.aggregate';
import { CampaignStatus } from './campaign-state-machine';
import { effectiveExtractionKeys, RESERVED_SIGNAL_NAMES } from './extraction-keys';

const NOW = new Date('2026-11-21T10:00:00Z');
const LATER = new Date('2026-11-21T11:00:00Z');
const noContext: CampaignRuleContext = { typeKeys: [], hasAudience: false };

function draft(overrides: Partial<CampaignDraft> = {}): Campaign {
  return Campaign.create({
    id: 'c1',
    workspaceId: 'w1',
    draft: { name: 'Spring', channel: 'VOICE', source: 'CSV', ...overrides },
    context: noContext,
    now: NOW,
  });
}

function inStatus(status: CampaignStatus, overrides: Partial<CampaignDraft> = {}): Campaign {
  const props = draft(overrides).toProps();
  return Campaign.restore({ ...props, status });
}

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('Campaign aggregate', () => {
  it('is created as a DRAFT with defaults', () => {
    const c = draft({ description: 'hello' }).toProps();
    expect(c).toMatchObject({
      status: 'DRAFT',
      name: 'Spring',
      description: 'hello',
      reservedConcurrency: 1,
      customExtractionKeysMode: 'APPEND',
      startedAt: null,
      timezone: 'UTC',
    });
    expect(c.settings.dialDays).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('refuses a journey campaign with a CRM source, and a CRM_WEBHOOK campaign without a default connection', () => {
    expect(codeOf(() => draft({ workflowId: 'wf', source: 'CRM_MANUAL' }))).toBe('journey_campaign_source_unsupported');
    expect(codeOf(() => draft({ source: 'CRM_WEBHOOK' }))).toBe('default_crm_connection_required');
    expect(codeOf(() => draft({ source: 'CRM_WEBHOOK', defaultCrmConnectionId: 'crm1' }))).toBeNull();
  });

  it('edits in DRAFT, PAUSED and CREDIT_EXHAUSTED; refuses elsewhere without changing anything', () => {
    for (const status of ['DRAFT', 'PAUSED', 'CREDIT_EXHAUSTED'] as const) {
      const c = inStatus(status);
      c.update({ name: 'Renamed', retryCount: 5 }, noContext, LATER);
      expect(c.toProps()).toMatchObject({ name: 'Renamed', updatedAt: LATER });
      expect(c.toProps().settings.retryCount).toBe(5);
    }
    for (const status of ['RUNNING', 'COMPLETED', 'CANCELED'] as const) {
      const c = inStatus(status);
      const before = c.toProps();
      expect(codeOf(() => c.update({ name: 'Renamed' }, noContext, LATER))).toBe('campaign_not_draft');
      expect(c.toProps()).toEqual(before);
    }
  });

  it('audience fields are DRAFT-only', () => {
    for (const change of [
      { source: 'API' as const },
      { channel: 'WHATSAPP' as const },
      { uploadId: 'u' },
      { phoneColumn: 'phone' },
      { altPhoneColumns: ['alt'] },
      { customExtractionKeys: [] },
      { customExtractionKeysMode: 'REPLACE' as const },
    ]) {
      const c = inStatus('PAUSED');
      const before = c.toProps();
      expect(codeOf(() => c.update({ description: 'x', ...change }, noContext, LATER))).toBe('campaign_not_draft');
      expect(c.toProps()).toEqual(before);
    }
    const c = inStatus('DRAFT');
    c.update({ source: 'API', channel: 'WHATSAPP' }, noContext, LATER);
    expect(c.toProps()).toMatchObject({ source: 'API', channel: 'WHATSAPP' });
  });

  it('locks the source once the campaign has an audience', () => {
    const c = inStatus('DRAFT');
    expect(codeOf(() => c.update({ source: 'API' }, { typeKeys: [], hasAudience: true }, LATER))).toBe('campaign_source_locked');
    expect(c.toProps().source).toBe('CSV');
    // re-sending the same source is no switch
    c.update({ source: 'CSV', description: 'same' }, { typeKeys: [], hasAudience: true }, LATER);
    expect(c.toProps().description).toBe('same');
  });

  it('refuses reserved custom keys and metric keys, and metric keys that collide with extraction fields', () => {
    const c = inStatus('DRAFT');
    const before = c.toProps();
    expect(codeOf(() => c.replaceCustomKeys([{ name: 'Phone', type: 'string', description: 'x' }], undefined, noContext, LATER))).toBe(
      'reserved_extraction_key',
    );
    expect(
      codeOf(() =>
        c.update(
          { evaluationMetrics: [{ key: 'sentiment', label: 'S', allowedValues: ['a'], prompt: 'p', builtin: false }] },
          noContext,
          LATER,
        ),
      ),
    ).toBe('reserved_metric_key');
    const typeKeys = [{ name: 'budget', type: 'number', description: 'b' }];
    expect(
      codeOf(() =>
        c.update(
          { evaluationMetrics: [{ key: 'budget', label: 'B', allowedValues: ['a'], prompt: 'p', builtin: false }] },
          { typeKeys, hasAudience: false },
          LATER,
        ),
      ),
    ).toBe('metric_key_collision');
    expect(c.toProps()).toEqual(before);

    c.update(
      { evaluationMetrics: [{ key: 'qualified', label: 'Q', allowedValues: ['yes', 'no'], prompt: 'p', builtin: false }] },
      noContext,
      LATER,
    );
    expect(
      codeOf(() => c.replaceCustomKeys([{ name: 'qualified', type: 'string', description: 'x' }], undefined, noContext, LATER)),
    ).toBe('metric_key_collision');
    // REPLACE mode drops the type keys, so a metric may then reuse a type key's name
    c.replaceCustomKeys([{ name: 'city', type: 'string', description: 'x' }], 'REPLACE', { typeKeys, hasAudience: false }, LATER);
    c.update(
      { evaluationMetrics: [{ key: 'budget', label: 'B', allowedValues: ['a'], prompt: 'p', builtin: false }] },
      { typeKeys, hasAudience: false },
      LATER,
    );
    expect(c.toProps().evaluationMetrics.map((m) => m.key)).toEqual(['budget']);
  });

  it('custom keys are DRAFT-only', () => {
    const c = inStatus('PAUSED');
    expect(codeOf(() => c.replaceCustomKeys([], undefined, noContext, LATER))).toBe('campaign_not_draft');
  });

  it('runs, pauses, resumes, stops and restarts through the table', () => {
    const c = inStatus('DRAFT');
    c.run('start', { reservedConcurrency: 3, allowBurst: true }, NOW);
    expect(c.toProps()).toMatchObject({ status: 'RUNNING', reservedConcurrency: 3, allowBurst: true, startedAt: NOW });
    expect(codeOf(() => c.run('start', { reservedConcurrency: 1, allowBurst: false }, LATER))).toBe('campaign_not_startable');
    expect(c.toProps().reservedConcurrency).toBe(3);
    c.pause(LATER);
    expect(c.status).toBe('PAUSED');
    c.run('resume', { reservedConcurrency: 2, allowBurst: false }, LATER);
    expect(c.toProps()).toMatchObject({ status: 'RUNNING', startedAt: NOW });
    c.stop(LATER);
    expect(c.toProps()).toMatchObject({ status: 'CANCELED', endedAt: LATER });
    expect(codeOf(() => c.stop(LATER))).toBe('campaign_already_terminal');
    c.run('restart', { reservedConcurrency: 1, allowBurst: false }, LATER);
    expect(c.toProps()).toMatchObject({ status: 'RUNNING', startedAt: LATER, endedAt: null });
    c.exhaustCredit(LATER);
    expect(c.status).toBe('CREDIT_EXHAUSTED');
    c.run('start', { reservedConcurrency: 1, allowBurst: false }, LATER);
    c.complete(LATER);
    expect(c.status).toBe('COMPLETED');
  });

  it('says why it is paused — a user, or the service\'s reason — and forgets it when it leaves PAUSED', () => {
    const c = inStatus('RUNNING');
    expect(c.toProps().pauseReason).toBeNull();
    c.pause(LATER);
    expect(c.toProps()).toMatchObject({ status: 'PAUSED', pauseReason: 'user' });
    c.run('resume', { reservedConcurrency: 1, allowBurst: false }, LATER);
    expect(c.toProps()).toMatchObject({ status: 'RUNNING', pauseReason: null });
    c.pause(LATER, 'no_usable_caller_id');
    expect(c.toProps().pauseReason).toBe('no_usable_caller_id');
    expect(codeOf(() => c.pause(LATER, 'other'))).toBe('campaign_not_running');
    expect(c.toProps().pauseReason).toBe('no_usable_caller_id'); // a refused pause changes nothing
    c.stop(LATER);
    expect(c.toProps()).toMatchObject({ status: 'CANCELED', pauseReason: null });
  });
});

describe('extraction keys', () => {
  const typeKeys = [
    { name: 'budget', type: 'number', description: 'type budget' },
    { name: 'city', type: 'string', description: 'type city' },
  ];
  const custom = [
    { name: 'city', type: 'string', description: 'custom city' },
    { name: 'pet', type: 'string', description: 'custom pet' },
  ];

  it('APPEND: type keys then custom keys, a custom key overriding the type key of the same name in place', () => {
    expect(effectiveExtractionKeys(typeKeys, custom, 'APPEND')).toEqual([
      { name: 'budget', type: 'number', description: 'type budget' },
      { name: 'city', type: 'string', description: 'custom city' },
      { name: 'pet', type: 'string', description: 'custom pet' },
    ]);
  });

  it('REPLACE: custom keys only', () => {
    expect(effectiveExtractionKeys(typeKeys, custom, 'REPLACE')).toEqual(custom);
  });

  it('documents the reserved built-in signal names', () => {
    for (const name of ['phone', 'name', 'status', 'disposition', 'outcome', 'attempts', 'call_id', 'transcript', 'recording_url']) {
      expect(RESERVED_SIGNAL_NAMES).toContain(name);
    }
  });
});
