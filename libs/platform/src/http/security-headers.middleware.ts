import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { HelmetOptions } from 'helmet';

/**
 * helmet's headers, worked out once (decisions.md 46.5). helmet runs a chain of thirteen
 * middlewares per request, each setting or removing one header; with the options the API uses
 * (fixed directives, no nonce, nothing read from the request) every answer gets the same ones. So
 * the chain runs once, at start-up, against a recorder, and one middleware replays what it did.
 * Options that make a header depend on the request (a directive given as a function) are refused.
 */
export function fixedSecurityHeaders(options: HelmetOptions): RequestHandler {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' && csp.directives ? csp.directives : {};
  for (const [name, value] of Object.entries(directives)) {
    if (typeof value === 'function' || (Array.isArray(value) && value.some((v) => typeof v === 'function'))) {
      throw new Error(`fixedSecurityHeaders: directive ${name} depends on the request; use helmet directly`);
    }
  }
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let done = false;
  helmet(options)({ headers: {} } as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    done = true;
  });
  if (!done) throw new Error('fixedSecurityHeaders: helmet did not finish synchronously');
  return (_req: Request, res: Response, next: NextFunction) => {
    for (let i = 0; i < set.length; i++) res.setHeader(set[i][0], set[i][1]);
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]);
    next();
  };
}
