import { runCli } from '../support/cli-process';
import { AnalyseCall, OverrideCallMetric } from '@outreach/calls';
import { AppError, Clock, FixedClock } from '@outreach/platform';
import { createCampaign } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { recordCall } from './call-fixtures';

/*
 * Metric overrides: the OverrideCallMetric use case (what the operator's `call:set-metric` runs)
 * with its codes, the stored audit beside the analysis's own evaluation, and the CLI command as
 * an operator runs it. Over HTTP every key gets 403 operator_only (see calls-api.e2e-spec.ts).
 */
const METRICS = [
  { key: 'qualified', label: 'Qualified', allowedValues: ['yes', 'no', 'unclear'], prompt: 'Is the lead qualified?' },
  { key: 'tone', label: 'Tone', allowedValues: ['warm', 'cold'], prompt: 'Caller tone' },
];

const cli = (args: string[]) => runCli(args);

describe('metric overrides (operator only)', () => {
  const clock = new FixedClock(new Date('2026-04-01T09:00:00.000Z'));
  let t: TestApp;
  let ws: Seeded;
  let campaignId: string;
  let callId: string;
  let analysed: Record<string, string>;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
  }, 90_000);
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
    campaignId = (await createCampaign(t, ws.key, { evaluationMetrics: METRICS })).id;
    callId = await recordCall(t, { workspaceId: ws.workspaceId, campaignId, to: '+14155550105' });
    analysed = (await t.get(AnalyseCall).execute(ws.workspaceId, callId)).evaluation as Record<string, string>;
  });

  const override = (input: { callId?: string; key: string; value: string }) =>
    t.get(OverrideCallMetric).execute({ callId: input.callId ?? callId, key: input.key, value: input.value }).then(
      (call) => ({ call, error: null as AppError | null }),
      (error: AppError) => ({ call: null, error }),
    );
  const readCall = async (id = callId) => (await t.http.get(`/calls/${id}`).set(bearer(ws.key))).body;
  const codeOf = (r: { error: AppError | null }) => ({ code: r.error?.code, status: r.error?.status });

  it('stores the override beside the analysis: evaluation shows the new value, metricOverrides keeps the original', async () => {
    const other = analysed.qualified === 'yes' ? 'no' : 'yes';
    const res = await override({ key: 'qualified', value: other });
    expect(res.error).toBeNull();

    const call = await readCall();
    expect(call.evaluation).toEqual({ ...analysed, qualified: other });
    expect(call.metricOverrides).toEqual({
      qualified: { value: other, originalValue: analysed.qualified, overriddenAt: '2026-04-01T09:00:00.000Z' },
    });
    // The analysis's own result is untouched in storage.
    const [row] = await t.dataSource.query(`SELECT evaluation FROM calls WHERE id = $1`, [callId]);
    expect(row.evaluation).toEqual(analysed);

    // A second correction replaces the value; originalValue stays the analysis's.
    clock.advance(60_000);
    await override({ key: 'qualified', value: 'unclear' });
    expect((await readCall()).metricOverrides.qualified).toEqual({
      value: 'unclear',
      originalValue: analysed.qualified,
      overriddenAt: '2026-04-01T09:01:00.000Z',
    });
    expect((await readCall()).evaluation.qualified).toBe('unclear');
  });

  it('a metric the analysis has not judged yet can be set (originalValue null)', async () => {
    const pending = await recordCall(t, { workspaceId: ws.workspaceId, campaignId, to: '+14155550106' });
    const res = await override({ callId: pending, key: 'tone', value: 'warm' });
    expect(res.error).toBeNull();
    const call = await readCall(pending);
    expect(call.analysisStatus).toBe('PENDING');
    expect(call.evaluation).toEqual({ tone: 'warm' });
    expect(call.metricOverrides.tone).toMatchObject({ value: 'warm', originalValue: null });
  });

  it("400 unknown_metric for a key the call's campaign does not define (and for any key of a test call); nothing changes", async () => {
    const before = await readCall();
    expect(codeOf(await override({ key: 'budget', value: 'yes' }))).toEqual({ code: 'unknown_metric', status: 400 });
    expect(codeOf(await override({ key: 'Qualified', value: 'yes' }))).toEqual({ code: 'unknown_metric', status: 400 });
    expect(await readCall()).toEqual(before);

    const testCall = await recordCall(t, { workspaceId: ws.workspaceId, to: '+14155550107' });
    expect(codeOf(await override({ callId: testCall, key: 'qualified', value: 'yes' }))).toEqual({ code: 'unknown_metric', status: 400 });
    expect((await readCall(testCall)).metricOverrides).toEqual({});
  });

  it("400 invalid_value for a value outside the metric's allowedValues; nothing changes", async () => {
    const before = await readCall();
    for (const value of ['maybe', 'YES', '', ' yes']) {
      expect(codeOf(await override({ key: 'qualified', value }))).toEqual({ code: 'invalid_value', status: 400 });
    }
    expect(await readCall()).toEqual(before);
  });

  it('404 call_not_found for an unknown or malformed call id', async () => {
    expect(codeOf(await override({ callId: '00000000-0000-4000-8000-000000000000', key: 'qualified', value: 'yes' }))).toEqual({
      code: 'call_not_found',
      status: 404,
    });
    expect(codeOf(await override({ callId: 'nope', key: 'qualified', value: 'yes' }))).toEqual({ code: 'call_not_found', status: 404 });
  });

  it(
    'operator CLI call:set-metric runs the use case; its refusals exit 1 naming the code',
    async () => {
      const ok = await cli(['call:set-metric', '--call', callId, '--key', 'tone', '--value', 'cold']);
      expect({ code: ok.code, stderr: ok.stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(ok.stdout)).toEqual({
        callId,
        key: 'tone',
        value: 'cold',
        originalValue: analysed.tone,
        overriddenAt: expect.any(String),
        evaluation: { ...analysed, tone: 'cold' },
      });
      expect((await readCall()).evaluation.tone).toBe('cold');

      const unknown = await cli(['call:set-metric', '--call', callId, '--key', 'budget', '--value', 'x']);
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toMatch(/^error: unknown_metric: /);

      const invalid = await cli(['call:set-metric', '--call', callId, '--key', 'tone', '--value', 'lukewarm']);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toMatch(/^error: invalid_value: /);

      const usage = await cli(['call:set-metric', '--call', 'not-a-uuid', '--key', 'tone', '--value', 'cold']);
      expect(usage.code).toBe(2);
      expect((await readCall()).evaluation.tone).toBe('cold');
    },
    60_000,
  );
});
