import { AppConfig } from '@outreach/platform';
import { ResumeAnalyses } from '../../application/analysis/resume-analyses';
import { CallsMaintenance } from './calls-maintenance';

describe('CallsMaintenance', () => {
  it('runs the analysis sweep on the reaper interval with CALL_ANALYSIS_IDLE_MS', async () => {
    const idleTimes: number[] = [];
    const resume = { execute: (idleMs: number) => (idleTimes.push(idleMs), Promise.resolve(0)) } as unknown as ResumeAnalyses;
    const maintenance = new CallsMaintenance(resume, { reaperIntervalMs: 5, callAnalysisIdleMs: 3456 } as AppConfig);
    maintenance.onApplicationBootstrap();
    try {
      for (let i = 0; i < 100 && idleTimes.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    } finally {
      await maintenance.onApplicationShutdown();
    }
    expect(idleTimes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(idleTimes)).toEqual(new Set([3456]));
  });
});
