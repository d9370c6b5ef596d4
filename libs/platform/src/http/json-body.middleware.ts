import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '@outreach/core';

export type RequestWithBodyError = Request & { bodyError?: AppError };
/** The bytes of a JSON or form-encoded body as received, for routes that verify a signature over them (provider webhooks). */
export type RequestWithRawBody = Request & { rawBody?: Buffer };

/**
 * JSON bodies up to the limit (1 MB by default). A malformed body becomes 400 internal_error and
 * a body over the limit 413 internal_error, as the contract says. The error is not answered
 * here but kept on the request and raised by RequestBodyGuard, so the order of checks holds:
 * unknown route (404) → authentication → rate limit → body.
 */
/**
 * The deepest nesting a JSON body may have (objects and arrays). The contract's deepest body is
 * far shallower (an agent's studio config: about 6 levels); a deeper one is refused with 400
 * invalid_body before any validator walks it recursively (a body nested ~1,300 levels deep once
 * overflowed class-transformer's stack and answered 500).
 */
export const MAX_JSON_DEPTH = 32;

/** The nesting depth of a parsed JSON value, measured without recursion. */
export function jsonDepth(value: unknown, stopAt = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** Where inbound provider webhooks are routed (form-encoded bodies are read there). */
export const WEBHOOK_PATH_PREFIX = '/webhooks/';

export function jsonBodyMiddleware(limitBytes: number): RequestHandler {
  const parse = express.json({
    limit: limitBytes,
    type: ['application/json', 'application/*+json'],
    verify: (req, _res, buf) => {
      (req as RequestWithRawBody).rawBody = buf;
    },
  });
  // Form-encoded bodies are read on the provider webhook routes only (Twilio's status callbacks),
  // keeping their bytes for the signature check; parsed flat (no nested keys), bounded like JSON.
  // Every other route takes JSON alone, as the contract says.
  const parseForm = express.urlencoded({
    limit: limitBytes,
    extended: false,
    type: 'application/x-www-form-urlencoded',
    verify: (req, _res, buf) => {
      (req as RequestWithRawBody).rawBody = buf;
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (jsonErr?: unknown) => {
      if (jsonErr || !req.path.startsWith(WEBHOOK_PATH_PREFIX)) return handle(jsonErr);
      parseForm(req, res, handle);
    });
    function handle(err?: unknown): void {
      if (err) {
        const tooLarge = (err as { type?: string }).type === 'entity.too.large';
        (req as RequestWithBodyError).bodyError = tooLarge
          ? new AppError('internal_error', { status: 413, message: `Request body over ${limitBytes} bytes` })
          : new AppError('internal_error', { status: 400, message: 'Malformed JSON body' });
        req.body = undefined;
      } else if (jsonDepth(req.body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
        const message = `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`;
        (req as RequestWithBodyError).bodyError = new AppError('invalid_body', { message, issues: [{ path: '', message }] });
        req.body = undefined;
      }
      next();
    }
  };
}
