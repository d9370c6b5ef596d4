import { Logger } from '@nestjs/common';
import { RateLimitedLog } from './queue-worker';

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
