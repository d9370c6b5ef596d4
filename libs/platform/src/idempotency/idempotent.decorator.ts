import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IDEMPOTENT_OPTIONS, IdempotentOptions } from './idempotent-options';

/**
 * Idempotency-Key semantics for a billed POST route (decisions.md 21.1):
 * - header required (400 idempotency_key_required), 1-200 printable ASCII (400 idempotency_key_invalid);
 * - keys are scoped per workspace + route and remember a SHA-256 of method, path, query and body;
 * - the first request runs; the same request while it runs → 409 idempotency_in_progress +
 *   `Retry-After: 1`; once finished → its status and body again, with `Idempotent-Replayed: true`;
 * - the same key with a different request → idempotency_key_reused (422, or `reusedStatus`);
 * - the store unreachable → 503 idempotency_unavailable, nothing run;
 * - 2xx and 4xx answers are kept 24 h; a 5xx releases the key (retry with the same key).
 * The interceptor needs IdempotencyModule (global) in the process: the API imports it.
 */
export const Idempotent = (options: IdempotentOptions = {}) =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_OPTIONS, options),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: true,
      description: 'Up to 200 printable ASCII characters; retry a failed request with the same key. Kept 24 h.',
    }),
  );
