import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { answeredError, declaredErrorStatuses } from './error-status.decorator';
import type { RequestWithBodyError } from './json-body.middleware';

/**
 * Raises a body the JSON parser refused (malformed, oversize, too deep), after auth and rate
 * limiting, with the status the route gives its code (a too-deep body is 422 invalid_body on the
 * lead push, like any other invalid body there).
 */
@Injectable()
export class RequestBodyGuard implements CanActivate {
  private readonly reflector = new Reflector();

  canActivate(context: ExecutionContext): boolean {
    const error = context.switchToHttp().getRequest<RequestWithBodyError>().bodyError;
    if (error) throw answeredError(error, declaredErrorStatuses(this.reflector, context));
    return true;
  }
}
