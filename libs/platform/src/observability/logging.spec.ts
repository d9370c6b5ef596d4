import { context, trace, TraceFlags } from '@opentelemetry/api';
import pino from 'pino';
import { Writable } from 'node:stream';
import { EventEmitter } from 'node:events';
import { logFormat, pinoOptions, requestLogging } from './logging';

describe('log format', () => {
  it('is pretty for a person at a terminal outside production', () => {
    expect(logFormat(true, 'development')).toBe('pretty');
    expect(logFormat(true, 'test')).toBe('pretty');
  });

  it('is JSON when stdout is not a terminal (a pipe, a file, a log shipper)', () => {
    expect(logFormat(false, 'development')).toBe('json');
    expect(logFormat(false, 'production')).toBe('json');
  });

  it('is JSON in production, even at a terminal', () => {
    expect(logFormat(true, 'production')).toBe('json');
  });
});

describe('log lines', () => {
  function capture() {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const { level, mixin, redact, serializers } = pinoOptions({ logLevel: 'info' });
    return { lines, logger: pino({ level, mixin, redact, serializers }, stream) };
  }

  beforeAll(() => {
    const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => context.disable());

  it('carry the traceId and spanId of the active span, and nothing of the kind outside one', () => {
    const { lines, logger } = capture();
    logger.info('outside');
    const span = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED });
    context.with(trace.setSpan(context.active(), span), () => logger.info({ body: { apiKey: 'pk_live_secret' } }, 'inside'));
    expect(lines[0]).not.toHaveProperty('traceId');
    expect(lines[1]).toMatchObject({ msg: 'inside', traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', body: { apiKey: '[redacted]' } });
  });

  it('blank out secret fields at the top level and one or two levels down, and keep the rest', () => {
    const { lines, logger } = capture();
    logger.info({ apiKey: 'pk_top', job: { token: 't1', id: 'j1' }, err: { config: { password: 'p2', authToken: 'a2', url: 'https://x' } } }, 'secrets');
    expect(lines[0]).toMatchObject({
      apiKey: '[redacted]',
      job: { token: '[redacted]', id: 'j1' },
      err: { config: { password: '[redacted]', authToken: '[redacted]', url: 'https://x' } },
    });
    expect(JSON.stringify(lines[0])).not.toMatch(/pk_top|t1|p2|a2/);
  });

  describe('of a request', () => {
    function exchange(url: string, id = 'req-1') {
      const req = Object.assign(new EventEmitter(), { id, method: 'GET', url, originalUrl: url, headers: { authorization: 'Bearer pk_live_x' } });
      const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: false });
      return { req, res, finish: (status: number) => Object.assign(res, { statusCode: status, writableFinished: true }).emit('finish') };
    }

    it('carry the request id, method and URL on every line written while it is handled, and nowhere else', async () => {
      const { lines, logger } = capture();
      const { req, res, finish } = exchange('/v1/results/r1');
      await new Promise<void>((done) =>
        requestLogging(logger)(req as never, res as never, () => {
          setImmediate(() => {
            logger.info({ apiKey: 'pk_live_in' }, 'inside, after an await');
            done();
          });
        }),
      );
      logger.info('after the request');
      finish(200);
      expect(lines[0]).toMatchObject({ msg: 'inside, after an await', requestId: 'req-1', req: { id: 'req-1', method: 'GET', url: '/v1/results/r1' }, apiKey: '[redacted]' });
      expect(lines[1]).not.toHaveProperty('requestId');
      expect(lines[2]).toMatchObject({ level: 30, msg: 'request completed', requestId: 'req-1', req: { url: '/v1/results/r1' }, res: { statusCode: 200 }, responseTime: expect.any(Number) });
      expect(lines).toHaveLength(3);
      expect(JSON.stringify(lines)).not.toMatch(/pk_live/);
    });

    it('end in one line: errored at error level for a 5xx, aborted when the client left first, none for /health', () => {
      const { lines, logger } = capture();
      const failing = exchange('/agents', 'req-2');
      requestLogging(logger)(failing.req as never, failing.res as never, () => undefined);
      failing.finish(503);
      failing.res.emit('close'); // close follows finish: still one line
      const aborted = exchange('/agents', 'req-3');
      requestLogging(logger)(aborted.req as never, aborted.res as never, () => undefined);
      aborted.res.emit('close');
      const health = exchange('/health/live', 'req-4');
      requestLogging(logger)(health.req as never, health.res as never, () => undefined);
      health.finish(200);
      expect(lines.map((l) => [l.level, l.msg, l.requestId])).toEqual([
        [50, 'request errored', 'req-2'],
        [30, 'request aborted', 'req-3'],
      ]);
    });

    it('writes nothing and adds no listener when info is off', () => {
      const { lines, logger } = capture();
      logger.level = 'warn';
      const { req, res, finish } = exchange('/agents');
      requestLogging(logger)(req as never, res as never, () => undefined);
      expect(res.listenerCount('finish')).toBe(0);
      finish(200);
      expect(lines).toHaveLength(0);
    });
  });
});
