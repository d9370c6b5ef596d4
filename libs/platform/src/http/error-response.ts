import type { Request, Response } from 'express';
import { AppError } from '@outreach/core';

/** The codes whose body names the code `code` instead of `error` (the lead push's refusal, decisions.md 1.4). */
export const CODE_KEYED_ERRORS: readonly string[] = ['campaign_not_accepting'];

/** The JSON body of every error answer (decisions.md 1.4). */
export function errorBody(error: AppError, requestId: string | undefined): Record<string, unknown> {
  const o = error.options;
  const body: Record<string, unknown> =
    // The one documented exception: lead push names its code `code`, with a `reason`.
    CODE_KEYED_ERRORS.includes(error.code) ? { code: error.code } : { error: error.code };
  body.message = error.message;
  if (o.issues) body.issues = o.issues;
  if (o.detail !== undefined) body.detail = o.detail;
  if (o.requiredPermission) body.requiredPermission = o.requiredPermission;
  if (o.upstreamStatus !== undefined) body.upstreamStatus = o.upstreamStatus;
  if (o.currentRevision !== undefined) body.currentRevision = o.currentRevision;
  if (o.extra) Object.assign(body, o.extra);
  if (requestId) body.requestId = requestId;
  return body;
}

/** Writes an AppError straight onto an Express response (used by the filter and raw middleware). */
export function writeError(req: Request, res: Response, error: AppError): void {
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(error.options.headers ?? {})) res.setHeader(name, value);
  res.status(error.status).json(errorBody(error, (req as Request & { id?: string }).id));
}
