import { ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, ErrorCode, isErrorCode } from '@outreach/core';

export const ERROR_STATUSES_METADATA = 'outreach:error-statuses';

/** Per code, the status a route answers instead of the catalogue's default. */
export type ErrorStatuses = Partial<Record<ErrorCode, number>>;

/**
 * The statuses a route (or every route of a controller) answers for some error codes, where the
 * contract gives that route a status other than the code's default: `@AnswerErrors({ invalid_phone: 400 })`.
 * Domain and application code raise codes only; the choice of status is the HTTP layer's, made
 * here and applied by ErrorStatusInterceptor (and by @Idempotent() before it stores an answer).
 * A status the catalogue does not list for the code fails when the class is loaded (or, for a
 * code whose module is loaded later, when the first interceptor is built at boot), so a route
 * cannot invent one.
 */
export function AnswerErrors(statuses: ErrorStatuses): ClassDecorator & MethodDecorator {
  for (const [code, status] of Object.entries(statuses)) {
    if (isErrorCode(code)) new AppError(code, { status });
    else unverified.push([code as ErrorCode, status as number]);
  }
  return SetMetadata(ERROR_STATUSES_METADATA, statuses);
}

/** Declarations whose code was not registered yet when their class loaded (module load order). */
const unverified: Array<[ErrorCode, number]> = [];

/** Checks the declarations deferred by AnswerErrors; every module is loaded by now. */
export function verifyDeclaredErrorStatuses(): void {
  for (const [code, status] of unverified.splice(0)) new AppError(code, { status });
}

/** The statuses declared for the route handling `context`: the method's over the controller's. */
export function declaredErrorStatuses(reflector: Reflector, context: ExecutionContext): ErrorStatuses {
  return {
    ...reflector.get<ErrorStatuses | undefined>(ERROR_STATUSES_METADATA, context.getClass()),
    ...reflector.get<ErrorStatuses | undefined>(ERROR_STATUSES_METADATA, context.getHandler()),
  };
}

/** The error as the route answers it: with the route's status for its code, else unchanged. */
export function answeredError(error: AppError, statuses: ErrorStatuses): AppError {
  const status = statuses[error.code];
  if (status === undefined || status === error.status) return error;
  const answered = new AppError(error.code, { ...error.options, message: error.message, status });
  answered.stack = error.stack;
  return answered;
}
