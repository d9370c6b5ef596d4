import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '@outreach/core';

/** Paths pino blanks out wherever they appear: keys and secrets never reach the logs. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  '*.key',
  '*.secret',
  '*.password',
  '*.apiKey',
  '*.token',
];

export function loggerModule() {
  return LoggerModule.forRootAsync({
    inject: [AppConfig],
    useFactory: (config: AppConfig) => ({
      pinoHttp: {
        level: config.logLevel,
        genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? '',
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
        customProps: (req: IncomingMessage) => ({ requestId: (req as IncomingMessage & { id?: string }).id }),
        serializers: {
          req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        },
      },
    }),
  });
}
