import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { callRecord, FixedAnalysisSubjects, InMemoryCallAnalysisStore } from '../testing';
import { OverrideCallMetric } from './override-call-metric';

/* OverrideCallMetric: an operator's correction of one evaluation metric, kept beside the analysis. */

const CAMPAIGN = 'b0000000-0000-4000-8000-000000000001';
const CALL = 'c0000000-0000-4000-8000-000000000001';
const TEST_CALL = 'c0000000-0000-4000-8000-000000000002';
const T0 = new Date('2026-03-01T09:00:00Z');

describe('OverrideCallMetric', () => {
  let store: InMemoryCallAnalysisStore;
  let subjects: FixedAnalysisSubjects;
  let uow: RollbackUnitOfWork;
  let override: OverrideCallMetric;

  beforeEach(() => {
    store = new InMemoryCallAnalysisStore();
    subjects = new FixedAnalysisSubjects();
    subjects.byCampaign.set(CAMPAIGN, {
      extractionKeys: [],
      metrics: [
        { key: 'interest', label: 'Interest', allowedValues: ['high', 'medium', 'low'], prompt: 'How interested?' },
        { key: 'booked', label: 'Booked', allowedValues: ['yes', 'no'], prompt: 'Booked?' },
      ],
    });
    uow = new RollbackUnitOfWork();
    override = new OverrideCallMetric(store, subjects, uow, new FixedClock(T0));
    store.add(callRecord({ id: CALL, campaignId: CAMPAIGN, analysisStatus: 'DONE', evaluation: { interest: 'low' } }));
    store.add(callRecord({ id: TEST_CALL, campaignId: null, kind: 'test' }));
  });

  it('stores the override beside the analysis, with the value it replaced, and returns the call', async () => {
    const call = await override.execute({ callId: CALL, key: 'interest', value: 'high' });
    expect(call.metricOverrides).toEqual({ interest: { value: 'high', originalValue: 'low', overriddenAt: T0.toISOString() } });
    expect(call.evaluation).toEqual({ interest: 'low' });
    expect((await store.findById(CALL))!.metricOverrides.interest.value).toBe('high');
    expect(uow.runs).toBe(1);
  });

  it('originalValue is null for a metric the analysis had not judged; a second override replaces the first', async () => {
    await override.execute({ callId: CALL, key: 'booked', value: 'no' });
    const call = await override.execute({ callId: CALL, key: 'booked', value: 'yes' });
    expect(call.metricOverrides.booked).toEqual({ value: 'yes', originalValue: null, overriddenAt: T0.toISOString() });
  });

  it("unknown_metric for a key the call's campaign does not evaluate", async () => {
    await expect(override.execute({ callId: CALL, key: 'mood', value: 'happy' })).rejects.toMatchObject({
      code: 'unknown_metric',
      options: { detail: { key: 'mood', metrics: ['interest', 'booked'] } },
    });
    expect((await store.findById(CALL))!.metricOverrides).toEqual({});
  });

  it('unknown_metric for a test call: it belongs to no campaign', async () => {
    await expect(override.execute({ callId: TEST_CALL, key: 'interest', value: 'high' })).rejects.toMatchObject({ code: 'unknown_metric' });
  });

  it("invalid_value for a value outside the metric's allowedValues", async () => {
    await expect(override.execute({ callId: CALL, key: 'interest', value: 'HIGH' })).rejects.toMatchObject({
      code: 'invalid_value',
      options: { detail: { key: 'interest', allowedValues: ['high', 'medium', 'low'] } },
    });
    expect((await store.findById(CALL))!.metricOverrides).toEqual({});
    expect(uow.runs).toBe(0);
  });

  it('call_not_found for an unknown call', async () => {
    await expect(override.execute({ callId: 'c0000000-0000-4000-8000-0000000000ff', key: 'interest', value: 'high' })).rejects.toMatchObject({
      code: 'call_not_found',
    });
  });
});
