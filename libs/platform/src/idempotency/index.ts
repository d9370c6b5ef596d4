export * from './idempotency-key';
export * from './idempotency.store';
export * from './postgres-idempotency.store';
export * from './idempotency.interceptor';
export * from './idempotent-options';
export * from './idempotent.decorator';
export * from './idempotency.module';
import { PlatformIdempotencyKeys1763700003200 } from './migrations/1763700003200-platform-idempotency-keys';
export const IDEMPOTENCY_MIGRATIONS = [PlatformIdempotencyKeys1763700003200];
