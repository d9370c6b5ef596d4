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

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: async (config: AppConfig) => {
            if (options.migrateOnBoot !== false) await runMigrations(config, options.migrations ?? registeredMigrations());
            return {
              ...postgresOptions(config, { applicationName: options.applicationName }),
              retryAttempts: 10,
              retryDelay: 1000,
            };
          },
        }),
      ],
      providers: [TransactionHost, { provide: UnitOfWork, useExisting: TransactionHost }],
      exports: [TransactionHost, UnitOfWork],
    };
  }
}
