import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';
import { PostgresIdempotencyStore } from './postgres-idempotency.store';

/**
 * Provides the store behind @Idempotent() to every module of the process (global, because the
 * interceptor is instantiated in the module of each controller that uses the decorator).
 */
@Global()
@Module({
  providers: [{ provide: IdempotencyStore, useClass: PostgresIdempotencyStore }, IdempotencyInterceptor],
  exports: [IdempotencyStore, IdempotencyInterceptor],
})
export class IdempotencyModule {}
