import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '@outreach/core';
import { UnitOfWork } from '@outreach/core';
import { MigrationList, postgresOptions } from './data-source-options';
import { runMigrations } from './migrate';
import { registeredMigrations } from './migration-registry';
import { TransactionHost } from './transaction-host';

export interface DatabaseModuleOptions {
  /** The migrations to apply; by default every module's (registered by `defineMigrations`). */
  migrations?: MigrationList;
  /** Apply pending migrations before the pool opens (api, worker and tests do). */
  migrateOnBoot?: boolean;
  applicationName?: string;
}

/** The options of the app being built, for the one TypeORM registration below. */
const DATABASE_MODULE_OPTIONS = Symbol('DatabaseModuleOptions');

/**
 * TypeORM's registration, made once per process: `TypeOrmModule.forRootAsync` records its data
 * source name in a process-wide registry when it is called, and warns when a name is taken. A
 * process that builds two apps (the tests' API and worker) called it once per app and warned each
 * time. The app's own options reach the factory through DatabaseModule's (global) provider.
 */
const TYPEORM = TypeOrmModule.forRootAsync({
  inject: [AppConfig, DATABASE_MODULE_OPTIONS],
  useFactory: async (config: AppConfig, options: DatabaseModuleOptions) => {
    if (options.migrateOnBoot !== false) await runMigrations(config, options.migrations ?? registeredMigrations());
    return {
      ...postgresOptions(config, { applicationName: options.applicationName }),
      retryAttempts: 10,
      retryDelay: 1000,
    };
  },
});

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TYPEORM],
      providers: [{ provide: DATABASE_MODULE_OPTIONS, useValue: options }, TransactionHost, { provide: UnitOfWork, useExisting: TransactionHost }],
      exports: [DATABASE_MODULE_OPTIONS, TransactionHost, UnitOfWork],
    };
  }
}
