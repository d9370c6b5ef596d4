import { buildLeadResult, envelopeInSpecOrder, LeadResultFacts } from './lead-result';

const facts: LeadResultFacts = {
  resultId: 'r-1',
  createdAt: new Date('2026-11-21T10:00:00Z'),
  leadId: 'l-1',
  campaignId: 'c-1',
  idempotencyKey: 'order-1',
  lead: { phone: '+14155552671', name: null, fields: { plan: 'pro' } },
  contactStatus: 'COMPLETED',
  lastOutcome: null,
  attempts: 2,
  connectedPhone: '+14155552671',
  finalCall: {
    id: 'call-1',
    toNumber: '+14155552671',
    status: 'ENDED',
    outcome: 'transferred',
    providerDisposition: 'transferred',
    attemptNumber: 2,
    answeredAt: new Date('2026-11-21T09:58:00Z'),
    endedAt: new Date('2026-11-21T09:59:00Z'),
    durationMs: 60_000,
  },
  analysis: { status: 'PENDING', evaluation: {}, extraction: {} },
};

describe('api.lead.result envelope', () => {
  it('has the spec’s shape: lower-case status, disposition from the call, journey null', () => {
    const e = buildLeadResult(facts);
    expect(e).toEqual({
      id: 'r-1',
      type: 'api.lead.result',
      apiVersion: '1.0',
      createdAt: '2026-11-21T10:00:00.000Z',
      data: {
        leadId: 'l-1',
        campaignId: 'c-1',
        idempotencyKey: 'order-1',
        lead: { phone: '+14155552671', name: null, fields: { plan: 'pro' } },
        status: 'completed',
        disposition: 'transferred',
        attempts: 2,
        finalCall: {
          id: 'call-1',
          status: 'ENDED',
          outcome: 'transferred',
          providerDisposition: 'transferred',
          attemptNumber: 2,
          answeredAt: '2026-11-21T09:58:00.000Z',
          endedAt: '2026-11-21T09:59:00.000Z',
          durationMs: 60_000,
          toNumber: '+14155552671',
        },
        analysis: { status: 'PENDING', evaluation: {}, extraction: {} },
        journey: null,
        connectedPhone: '+14155552671',
        message: null,
      },
    });
  });

  it('the engine’s last outcome wins for the disposition; no call → finalCall null, analysis SKIPPED', () => {
    expect(buildLeadResult({ ...facts, lastOutcome: 'completed' }).data.disposition).toBe('completed');
    const noCall = buildLeadResult({ ...facts, contactStatus: 'DO_NOT_CALL', finalCall: null, analysis: null, attempts: 0 });
    expect(noCall.data).toMatchObject({ status: 'do_not_call', disposition: 'do_not_call', finalCall: null, attempts: 0 });
    expect(noCall.data.analysis).toEqual({ status: 'SKIPPED', evaluation: {}, extraction: {} });
  });

  it('refuses a lead that is not final', () => {
    expect(() => buildLeadResult({ ...facts, contactStatus: 'RETRY_SCHEDULED' })).toThrow();
  });

  it('restores the spec’s member order of a jsonb round trip', () => {
    const e = buildLeadResult(facts);
    const shuffled = JSON.parse(JSON.stringify({ data: { ...e.data, journey: null }, type: e.type, id: e.id, createdAt: e.createdAt, apiVersion: e.apiVersion }));
    const ordered = envelopeInSpecOrder(shuffled);
    expect(JSON.stringify(ordered)).toBe(JSON.stringify(e));
  });
});
