import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { catchError, Observable, throwError } from 'rxjs';
import { isAppError } from '@outreach/core';
import { answeredError, declaredErrorStatuses, ErrorStatuses, verifyDeclaredErrorStatuses } from './error-status.decorator';

/**
 * Applies a route's @AnswerErrors() to the errors of its pipes and handler (global, so it wraps
 * every route-level interceptor; @Idempotent() applies the same statuses itself before it stores
 * an answer). Errors of the guards (401, 403, 429, body) never reach it: they are not the route's.
 */
@Injectable()
export class ErrorStatusInterceptor implements NestInterceptor {
  /** The declared statuses per route handler (null: none), read once: this runs on every request. */
  private readonly byHandler = new WeakMap<object, ErrorStatuses | null>();

  constructor(private readonly reflector: Reflector) {
    verifyDeclaredErrorStatuses();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler();
    let statuses = this.byHandler.get(handler);
    if (statuses === undefined) {
      const declared = declaredErrorStatuses(this.reflector, context);
      statuses = Object.keys(declared).length > 0 ? declared : null;
      this.byHandler.set(handler, statuses);
    }
    if (statuses === null) return next.handle();
    const answered = statuses;
    return next.handle().pipe(catchError((error: unknown) => throwError(() => (isAppError(error) ? answeredError(error, answered) : error))));
  }
}
