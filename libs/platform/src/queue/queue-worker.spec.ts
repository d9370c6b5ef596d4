import { Logger } from '@nestjs/common';
import { RetryLater } from '@outreach/core';
import { DelayedError, Job } from 'bullmq';
import { OUTAGE_MAX_WAITS, QueueWorkerHost, RateLimitedLog, waitBeforeRerun } from './queue-worker';

describe('RateLimitedLog', () => {
  afterEach(() => jest.useRealTimers());

  it('logs the first warning, drops the flood that follows, and logs again after the interval', () => {
    jest.useFakeTimers({ now: new Date('2026-11-21T10:00:00Z') });
    const logger = new Logger('test');
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const log = new RateLimitedLog(logger, 30_000);

    expect(log.warn('connect ECONNREFUSED')).toBe(true);
    for (let i = 0; i < 50; i++) {
      jest.advanceTimersByTime(500); // a reconnect every 500 ms for 25 s
      expect(log.warn('connect ECONNREFUSED')).toBe(false);
    }
    jest.advanceTimersByTime(5_000);
    expect(log.warn('connect ECONNREFUSED')).toBe(true);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe('waitBeforeRerun and QueueWorkerHost.process (decisions.md 2.7)', () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const job = (attemptsStarted: number, attemptsMade = 0) => ({ attemptsStarted, attemptsMade });

  it('an unreachable database: waits doubling from 500 ms to 5 s, without spending an attempt, for ~3 hours of waits', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map((started) => waitBeforeRerun(job(started), refused()))).toEqual([500, 1000, 2000, 4000, 5000, 5000, 5000]);
    expect(waitBeforeRerun(job(3, 2), refused())).toBe(500); // two real failures before: this is the first wait
    expect(waitBeforeRerun(job(OUTAGE_MAX_WAITS + 1), refused())).toBeNull();
  });

  it('RetryLater waits what it asks; any other error is a real failure (null: BullMQ retries apply)', () => {
    expect(waitBeforeRerun(job(9), new RetryLater(2000, 'call in progress'))).toBe(2000);
    expect(waitBeforeRerun(job(1), new Error('boom'))).toBeNull();
    expect(waitBeforeRerun(job(1), Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull();
  });

  class Host extends QueueWorkerHost {
    constructor(private readonly work: () => Promise<unknown>) {
      super('test');
    }
    protected handle(): Promise<unknown> {
      return this.work();
    }
  }
  const bullJob = (moveToDelayed: jest.Mock) => ({ attemptsStarted: 1, attemptsMade: 0, moveToDelayed }) as unknown as Job;

  it('process: a job that met an outage is moved to delayed and ends with DelayedError (no attempt spent)', async () => {
    const moveToDelayed = jest.fn().mockResolvedValue(undefined);
    const before = Date.now();
    await expect(new Host(() => Promise.reject(refused())).process(bullJob(moveToDelayed), 'token-1')).rejects.toBeInstanceOf(DelayedError);
    const [until, token] = moveToDelayed.mock.calls[0] as [number, string];
    expect(token).toBe('token-1');
    expect(until - before).toBeGreaterThanOrEqual(500);
    expect(until - before).toBeLessThan(1500);
  });

  it('process: results and real failures pass through; an outage with Redis gone too fails as usual', async () => {
    const moveToDelayed = jest.fn().mockRejectedValue(new Error('redis gone'));
    await expect(new Host(async () => 'done').process(bullJob(moveToDelayed), 't')).resolves.toBe('done');
    await expect(new Host(() => Promise.reject(new Error('boom'))).process(bullJob(moveToDelayed), 't')).rejects.toThrow('boom');
    expect(moveToDelayed).not.toHaveBeenCalled();
    await expect(new Host(() => Promise.reject(refused())).process(bullJob(moveToDelayed), 't')).rejects.toThrow('ECONNREFUSED');
    expect(moveToDelayed).toHaveBeenCalledTimes(1);
  });
});
