import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig, ConfigDefaults, loadConfig } from '@outreach/core';

@Global()
@Module({})
export class ConfigModule {
  /** Validates the environment once; a bad variable stops the boot with a readable list. */
  static forRoot(defaults: ConfigDefaults = {}): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useFactory: () => loadConfig(process.env, defaults) }],
      exports: [AppConfig],
    };
  }
}
