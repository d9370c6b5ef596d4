import { NotFoundException } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * The credential an operator sends: `Authorization: Bearer <token>`, or HTTP Basic with the token
 * as the password (any user name) so that a browser can open the dashboard from its own prompt
 * and send the credential with each of the page's API calls. Null when neither is there.
 */
export function presentedAdminToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const [scheme, value] = authorization.trim().split(/\s+/, 2);
  if (!value) return null;
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : null;
  }
  return null;
}

/** Constant-time comparison: both sides are hashed first, so neither length nor content leaks. */
export function adminTokenMatches(presented: string | null, expected: string): boolean {
  if (presented === null) return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export const ADMIN_REALM = 'Basic realm="Outreach queues", charset="UTF-8"';

/**
 * Express middleware in front of the queues dashboard. ADMIN_TOKEN unset: the dashboard does not
 * exist (404 not_found, the body of any unknown route). Set: the token or 401 unauthorized with a
 * Basic challenge (a browser asks for it). Errors go through the API's exception filter, so the
 * bodies and the request id are the API's own.
 */
export function adminTokenMiddleware(adminToken: string | null) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (adminToken === null) throw new NotFoundException();
    if (!adminTokenMatches(presentedAdminToken(req.header('authorization')), adminToken)) {
      throw new AppError('unauthorized', {
        message: 'Send Authorization: Bearer <ADMIN_TOKEN> (or Basic with the token as the password)',
        headers: { 'WWW-Authenticate': ADMIN_REALM },
      });
    }
    // The dashboard's answers are about this deployment's jobs: never cached by the browser or a proxy.
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}
