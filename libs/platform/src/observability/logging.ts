import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import pino, { DestinationStream, Logger } from 'pino';
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

/** What every log line written while a request is handled carries (decisions.md 6.1, 46.4). */
interface RequestLogFields {
  requestId: string;
  req: { id: string; method: string | undefined; url: string | undefined };
}

const requestFields = new AsyncLocalStorage<RequestLogFields>();

/** The fields pino adds to every line: the active span's trace ids, and the request's id while one is handled. */
function logMixin(): object {
  const request = requestFields.getStore();
  const trace = activeTraceFields();
  return request ? { ...trace, requestId: request.requestId, req: request.req } : trace;
}

/** pino options of the API and the worker: level, trace and request ids, redaction. */
export function pinoOptions(config: Pick<AppConfig, 'logLevel'>) {
  return {
    level: config.logLevel,
    // traceId / spanId of the active span (a request's or a job's) when tracing is on; requestId and req in a request.
    mixin: logMixin,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

let root: Logger | undefined;

/**
 * The process's one root logger. nestjs-pino keeps one per process too (the first options win);
 * this is that logger, made here so the request logging below and Nest's logger share it.
 */
export function rootLogger(config: Pick<AppConfig, 'logLevel' | 'nodeEnv'>): Logger {
  if (!root) {
    const destination = logDestination(logFormat(Boolean(process.stdout.isTTY), config.nodeEnv));
    root = destination ? pino(pinoOptions(config), destination) : pino(pinoOptions(config));
  }
  return root;
}

/**
 * Request logging (decisions.md 46.4), in place of pino-http: one line when the answer is sent
 * ("request completed"; "request errored" at error level for a 5xx; "request aborted" when the
 * client went away first), except for /health, and the request's id and method and URL on every
 * line written while the request is handled (through the logger's mixin, from this middleware's
 * AsyncLocalStorage). pino-http made two child loggers per request, serialising and redacting
 * their bindings each time, whether or not anything was then written: about 11 % of the API's
 * busy time on a result GET in the profile, even at `silent`.
 */
export function requestLogging(logger: Logger) {
  return (req: IncomingMessage & { id?: string; originalUrl?: string }, res: ServerResponse, next: () => void): void => {
    const id = req.id ?? '';
    const fields: RequestLogFields = { requestId: id, req: { id, method: req.method, url: req.originalUrl ?? req.url } };
    if (!(req.url ?? '').startsWith('/health') && logger.isLevelEnabled('info')) {
      const started = Date.now();
      const complete = () => {
        res.removeListener('finish', complete);
        res.removeListener('close', complete);
        const line = { ...fields, res: { statusCode: res.statusCode }, responseTime: Date.now() - started };
        if (!res.writableFinished) logger.info(line, 'request aborted');
        else if (res.statusCode >= 500) logger.error(line, 'request errored');
        else logger.info(line, 'request completed');
      };
      res.once('finish', complete);
      res.once('close', complete);
    }
    requestFields.run(fields, next);
  };
}

export function loggerModule() {
  return LoggerModule.forRootAsync({
    inject: [AppConfig],
    // Nest's logger writes through the same root; nestjs-pino's own request middleware (pino-http
    // and its per-request context) is not mounted: requestLogging() does that job.
    useFactory: (config: AppConfig) => ({ pinoHttp: { logger: rootLogger(config) }, useExisting: true, forRoutes: [] }),
  });
}
