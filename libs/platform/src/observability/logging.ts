import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import pinoPretty from 'pino-pretty';
import { AppConfig } from '@outreach/core';
import { activeTraceFields } from '@outreach/telemetry';

/** Field names whose values are secrets wherever they appear in a log object. */
export const SECRET_FIELDS = ['key', 'secret', 'password', 'apiKey', 'token', 'authToken', 'accessToken', 'privateKey', 'credentials', 'authorization'];

/**
 * Paths pino blanks out: keys and secrets never reach the logs. pino has no recursive wildcard, so
 * each secret field is listed at the top level and one and two levels down (`{ apiKey }`,
 * `{ body: { apiKey } }`, `{ err: { config: { apiKey } } }`), beside the request's credential headers.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'req.headers["x-twilio-signature"]',
  'req.headers["x-vapi-secret"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];

export type LogFormat = 'pretty' | 'json';

/**
 * Human-readable lines (pino-pretty) for a person at a terminal outside production; JSON lines,
 * one object each, for everything else (a pipe, a file, a log shipper, production).
 */
export function logFormat(stdoutIsTty: boolean, nodeEnv: string): LogFormat {
  return stdoutIsTty && nodeEnv !== 'production' ? 'pretty' : 'json';
}

/** Where log lines go: pino's own stdout writer for JSON, a pino-pretty stream otherwise. */
function logDestination(format: LogFormat): DestinationStream | undefined {
  if (format === 'json') return undefined;
  return pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: false });
}

/** pino(-http) options of the API and the worker: level, trace ids, request ids, redaction. */
export function pinoOptions(config: Pick<AppConfig, 'logLevel'>) {
  return {
    level: config.logLevel,
    // traceId / spanId of the active span (a request's or a job's) when tracing is on.
    mixin: activeTraceFields,
    genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? '',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
    customProps: (req: IncomingMessage) => ({ requestId: (req as IncomingMessage & { id?: string }).id }),
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

export function loggerModule() {
  return LoggerModule.forRootAsync({
    inject: [AppConfig],
    useFactory: (config: AppConfig) => {
      const options = pinoOptions(config);
      const destination = logDestination(logFormat(Boolean(process.stdout.isTTY), config.nodeEnv));
      return { pinoHttp: destination ? ([options, destination] as const) : options };
    },
  });
}
