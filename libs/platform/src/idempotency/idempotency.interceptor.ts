import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Request, Response as ExpressResponse } from 'express';
import { catchError, from, mergeMap, Observable, of } from 'rxjs';
import { AppError } from '@outreach/core';
import type { RequestWithPrincipal } from '../auth/principal';
import { errorBody } from '../http/error-response';
import { answeredError, declaredErrorStatuses } from '../http/error-status.decorator';
import { toAppError } from '../http/to-app-error';
import { IDEMPOTENT_OPTIONS, IdempotentOptions } from './idempotent-options';
import { IDEMPOTENCY_RETRY_AFTER_SECONDS, parseIdempotencyKey, requestHash } from './idempotency-key';
import { IdempotencyScope, IdempotencyStore } from './idempotency.store';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Runs behind the guards (so the workspace is known) and before the validation pipe. See
 * @Idempotent() for the rules. What is stored is the answer the client got: the handler's value
 * with the route's status, or a 4xx error body. 5xx answers release the key instead, so the
 * client's retry with the same key runs again.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const options = this.reflector.get<IdempotentOptions | undefined>(IDEMPOTENT_OPTIONS, context.getHandler()) ?? {};
    const http = context.switchToHttp();
    const req = http.getRequest<Request & RequestWithPrincipal>();
    const res = http.getResponse<ExpressResponse>();
    const key = parseIdempotencyKey(req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    const principal = req.principal;
    if (!principal) throw new Error('@Idempotent() needs a route that authenticates an API key');

    const routePath = (req.route as { path?: string } | undefined)?.path ?? req.path;
    const scope: IdempotencyScope = {
      workspaceId: principal.workspaceId,
      route: `${req.method} ${routePath}`,
      key,
      requestHash: requestHash({ method: req.method, path: req.path, query: req.query, body: req.body }),
    };

    let claim;
    try {
      claim = await this.store.begin(scope);
    } catch (error) {
      this.logger.warn({ err: String(error), route: scope.route }, 'idempotency store unavailable');
      throw new AppError('idempotency_unavailable', { headers: { 'Retry-After': String(IDEMPOTENCY_RETRY_AFTER_SECONDS) } });
    }

    switch (claim.outcome) {
      case 'reused':
        throw new AppError('idempotency_key_reused', {
          status: options.reusedStatus,
          message: 'This Idempotency-Key was already used for a different request',
        });
      case 'in_progress':
        throw new AppError('idempotency_in_progress', {
          headers: { 'Retry-After': String(IDEMPOTENCY_RETRY_AFTER_SECONDS) },
        });
      case 'replay':
        res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
        return of(replayResponse(claim.status, claim.body));
      case 'acquired':
        break;
    }

    const token = claim.token;
    const successStatus: number =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? (req.method === 'POST' ? 201 : 200);
    return next.handle().pipe(
      mergeMap((value) => from(this.settle(scope, token, { status: successStatus, body: toJsonValue(value) }).then(() => value))),
      catchError((exception: unknown) => {
        // Stored as the client gets it: with the route's @AnswerErrors() status.
        const error = answeredError(toAppError(exception).error, declaredErrorStatuses(this.reflector, context));
        const settled =
          error.status < 500
            ? this.settle(scope, token, { status: error.status, body: errorBody(error, (req as { id?: string }).id) })
            : this.release(scope, token);
        return from(
          settled.then(() => {
            throw exception;
          }),
        );
      }),
    );
  }

  /**
   * The handler's effects are done: failing to record the answer must not turn them into an
   * error. The key then stays "in progress" until its lock times out.
   */
  private async settle(scope: IdempotencyScope, token: string, response: { status: number; body: unknown }): Promise<void> {
    try {
      await this.store.complete(scope, token, response);
    } catch (error) {
      this.logger.error({ err: String(error), route: scope.route }, 'could not store the idempotent answer');
    }
  }

  private async release(scope: IdempotencyScope, token: string): Promise<void> {
    try {
      await this.store.release(scope, token);
    } catch (error) {
      this.logger.error({ err: String(error), route: scope.route }, 'could not release the idempotency key');
    }
  }
}

/** The value as it goes over the wire (Dates → strings, undefined members dropped). */
function toJsonValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** A stored answer, sent with its own status (a web Response wins over the route's @HttpCode). */
function replayResponse(status: number, body: unknown): Response {
  if (body === null || body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
