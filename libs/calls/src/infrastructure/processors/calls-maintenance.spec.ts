import { AppConfig } from '@outreach/platform';
import { tickUntil } from '../../../../platform/src/testing';
import { ResumeAnalyses } from '../../application/analysis/resume-analyses';
import { CallsMaintenance } from './calls-maintenance';

describe('CallsMaintenance', () => {
  it('runs the analysis sweep on the reaper interval with CALL_ANALYSIS_IDLE_MS', async () => {
    const idleTimes: number[] = [];
    const resume = { execute: (idleMs: number) => (idleTimes.push(idleMs), Promise.resolve(0)) } as unknown as ResumeAnalyses;
    const maintenance = new CallsMaintenance(resume, { reaperIntervalMs: 5, callAnalysisIdleMs: 3456 } as AppConfig);
    await tickUntil(maintenance, () => idleTimes.length >= 2);
    expect(idleTimes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(idleTimes)).toEqual(new Set([3456]));
  });
});
