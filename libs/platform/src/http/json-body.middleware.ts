import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '@outreach/core';

export type RequestWithBodyError = Request & { bodyError?: AppError };

/**
 * JSON bodies up to the limit (1 MB by default). A malformed body becomes 400 internal_error and
 * a body over the limit 413 internal_error, as the contract says. The error is not answered
 * here but kept on the request and raised by RequestBodyGuard, so the order of checks holds:
 * unknown route (404) → authentication → rate limit → body.
 */
export function jsonBodyMiddleware(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'] });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (err?: unknown) => {
      if (err) {
        const tooLarge = (err as { type?: string }).type === 'entity.too.large';
        (req as RequestWithBodyError).bodyError = tooLarge
          ? new AppError('internal_error', { status: 413, message: `Request body over ${limitBytes} bytes` })
          : new AppError('internal_error', { status: 400, message: 'Malformed JSON body' });
        req.body = undefined;
      }
      next();
    });
  };
}
