import { context, trace, TraceFlags } from '@opentelemetry/api';
import pino from 'pino';
import { Writable } from 'node:stream';
import { logFormat, pinoOptions } from './logging';

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
    const { level, mixin, redact } = pinoOptions({ logLevel: 'info' });
    return { lines, logger: pino({ level, mixin, redact }, stream) };
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
});
