import { ErrorCode, errorDefinition } from './error-registry';

/** One validation failure: where (a dotted path into the input) and why. */
export interface ValidationIssue {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  /** Human-readable text; defaults to the catalogue's message. May change; clients never branch on it. */
  message?: string;
  /** A status the catalogue allows for this code on this route (e.g. 422 for invalid_body on lead push). */
  status?: number;
  issues?: ValidationIssue[];
  detail?: unknown;
  requiredPermission?: string;
  upstreamStatus?: number;
  currentRevision?: number;
  /** Response headers that belong to the answer (Retry-After…). */
  headers?: Record<string, string>;
  /** Extra members for the body (e.g. `reason` on campaign_not_accepting). */
  extra?: Record<string, unknown>;
}

/**
 * The one error type that domain, application and infrastructure code throw. It carries a
 * contract `code`; the HTTP layer turns it into a status and a body, the CLI into a message and
 * an exit code. Never an HTTP exception below the controllers.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly options: AppErrorOptions = {},
  ) {
    const definition = errorDefinition(code);
    super(options.message ?? definition.message);
    this.name = 'AppError';
    const allowed = [definition.status, ...(definition.also ?? [])];
    if (options.status !== undefined && !allowed.includes(options.status)) {
      throw new Error(`status ${options.status} is not allowed for error code ${code}`);
    }
    this.status = options.status ?? definition.status;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
