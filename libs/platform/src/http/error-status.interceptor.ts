import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { catchError, Observable, throwError } from 'rxjs';
import { isAppError } from '@outreach/core';
import { answeredError, declaredErrorStatuses, verifyDeclaredErrorStatuses } from './error-status.decorator';

/**
 * Applies a route's @AnswerErrors() to the errors of its pipes and handler (global, so it wraps
 * every route-level interceptor; @Idempotent() applies the same statuses itself before it stores
 * an answer). Errors of the guards (401, 403, 429, body) never reach it: they are not the route's.
 */
@Injectable()
export class ErrorStatusInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {
    verifyDeclaredErrorStatuses();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const statuses = declaredErrorStatuses(this.reflector, context);
    if (Object.keys(statuses).length === 0) return next.handle();
    return next.handle().pipe(catchError((error: unknown) => throwError(() => (isAppError(error) ? answeredError(error, statuses) : error))));
  }
}
