import { ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, ErrorCode } from '@outreach/core';

export const ERROR_STATUSES_METADATA = 'outreach:error-statuses';

/** Per code, the status a route answers instead of the catalogue's default. */
export type ErrorStatuses = Partial<Record<ErrorCode, number>>;

/**
 * The statuses a route (or every route of a controller) answers for some error codes, where the
 * contract gives that route a status other than the code's default: `@AnswerErrors({ invalid_phone: 400 })`.
 * Domain and application code raise codes only; the choice of status is the HTTP layer's, made
 * here and applied by ErrorStatusInterceptor (and by @Idempotent() before it stores an answer).
 * A status the catalogue does not list for the code fails when the class is loaded, so a route
 * cannot invent one.
 */
export function AnswerErrors(statuses: ErrorStatuses): ClassDecorator & MethodDecorator {
  for (const [code, status] of Object.entries(statuses)) new AppError(code as ErrorCode, { status });
  return SetMetadata(ERROR_STATUSES_METADATA, statuses);
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
