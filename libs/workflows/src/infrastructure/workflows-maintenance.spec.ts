import { AppConfig } from '@outreach/platform';
import { tickUntil } from '../../../platform/src/testing';
import { JourneyRuns } from '../application/journey-runs';
import { WorkflowsMaintenance } from './workflows-maintenance';

describe('WorkflowsMaintenance', () => {
  it('sweeps on the reaper interval with WORKFLOW_RUN_IDLE_MS as the idle time of a run that lost its job', async () => {
    const idleTimes: number[] = [];
    const runs = { sweep: (idleMs: number) => (idleTimes.push(idleMs), Promise.resolve(0)) } as unknown as JourneyRuns;
    const config = { reaperIntervalMs: 5, workflowRunIdleMs: 2345 } as AppConfig;
    const maintenance = new WorkflowsMaintenance(runs, config);
    await tickUntil(maintenance, () => idleTimes.length >= 2);
    expect(idleTimes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(idleTimes)).toEqual(new Set([2345]));
  });
});
