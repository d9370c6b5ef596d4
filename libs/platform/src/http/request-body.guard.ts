import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { RequestWithBodyError } from './json-body.middleware';

/** Raises a body the JSON parser refused (malformed, oversize), after auth and rate limiting. */
@Injectable()
export class RequestBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const error = context.switchToHttp().getRequest<RequestWithBodyError>().bodyError;
    if (error) throw error;
    return true;
  }
}
