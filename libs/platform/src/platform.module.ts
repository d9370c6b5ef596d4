import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { BullModule } from '@nestjs/bullmq';
import { bullmqTelemetry } from '@outreach/telemetry';
import { AccessChanges, RedisAccessChanges } from './auth/access-changes';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AppConfig, ConfigDefaults } from '@outreach/core';
import { ConfigModule } from './config/config.module';
import { Clock, SystemClock } from '@outreach/core';
import { MigrationList } from './database/data-source-options';
import { DatabaseModule } from './database/database.module';
import { AppExceptionFilter } from './http/app-exception.filter';
import { ErrorStatusInterceptor } from './http/error-status.interceptor';
import { RequestBodyGuard } from './http/request-body.guard';
import { HealthController } from './observability/health.controller';
import { loggerModule } from './observability/logging';
import { MetricsController, MetricsService } from './observability/metrics';
import { Outbox } from '@outreach/core';
import { SqlOutbox } from './outbox/outbox';
import { OutboxRelay } from './outbox/outbox-relay';
import { OutboxListener } from './outbox/outbox-listener';
import { PlatformHousekeeping } from './housekeeping/platform-housekeeping';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { bullPrefix, QueueProducer } from './queue/queue-producer';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimiter } from './rate-limit/rate-limiter';
import { RedisModule, redisOptions } from './redis/redis.module';

export type ProcessRole = 'api' | 'worker' | 'cli';

export interface PlatformOptions {
  role: ProcessRole;
  /** The migrations to apply; by default every loaded module's (see migration-registry.ts). */
  migrations?: MigrationList;
  configDefaults?: ConfigDefaults;
}

/**
 * Everything cross-cutting, wired once per process. Domain modules just inject what they need:
 * AppConfig, Clock, UnitOfWork/TransactionHost, Outbox.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    const { role } = options;
    const imports: NonNullable<DynamicModule['imports']> = [
      ConfigModule.forRoot(options.configDefaults),
      // The CLI migrates only when told to (`migrate` reports what it applied).
      DatabaseModule.forRoot({ migrations: options.migrations, applicationName: `outreach-${role}`, migrateOnBoot: role !== 'cli' }),
    ];
    // The CLI's stdout carries only its JSON answer: no pino logger there.
    if (role !== 'cli') imports.push(loggerModule());
    const providers: Provider[] = [
      { provide: Clock, useClass: SystemClock },
      { provide: Outbox, useClass: SqlOutbox },
      // Every role may change keys, members or workspaces (the CLI does); the API also listens.
      { provide: AccessChanges, useClass: RedisAccessChanges },
    ];
    const exports: unknown[] = [Clock, Outbox, AccessChanges];
    const controllers: NonNullable<DynamicModule['controllers']> = [];

    if (role === 'api' || role === 'worker') {
      imports.push(RedisModule);
    }
    if (role === 'api') {
      controllers.push(HealthController, MetricsController);
      providers.push(MetricsService, RateLimiter);
      exports.push(MetricsService, RateLimiter);
    }
    if (role === 'worker') {
      imports.push(
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            prefix: bullPrefix(config),
            // A connection that went silent (dropped by the network) is closed and reopened; 30 s is
            // longer than any blocking wait of a BullMQ worker.
            connection: redisOptions(config, { maxRetriesPerRequest: null, socketTimeout: 30_000 }),
            // When tracing is on: each job runs in a consumer span continuing its producer's trace.
            telemetry: bullmqTelemetry(),
          }),
        }),
      );
      imports.push(IdempotencyModule);
      providers.push(QueueProducer, OutboxRelay, OutboxListener, PlatformHousekeeping);
      exports.push(QueueProducer, OutboxRelay, OutboxListener, PlatformHousekeeping);
    }
    return { module: PlatformModule, imports, providers, exports: exports as never[], controllers };
  }
}

/**
 * The API's global guards and filter, in order: authenticate + authorize, rate-limit, then a body
 * the JSON parser refused; the routes' @AnswerErrors() statuses; the one exception filter.
 * Declared by the app module, which also imports the module that provides ApiKeyResolver.
 */
export const API_GLOBAL_PROVIDERS: Provider[] = [
  { provide: APP_GUARD, useClass: ApiKeyGuard },
  { provide: APP_GUARD, useClass: RateLimitGuard },
  { provide: APP_GUARD, useClass: RequestBodyGuard },
  { provide: APP_INTERCEPTOR, useClass: ErrorStatusInterceptor },
  { provide: APP_FILTER, useClass: AppExceptionFilter },
];
