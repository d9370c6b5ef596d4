import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@outreach/platform';
import { groupsFor } from './cli-commands';
import { CliProgram } from './cli-program';

/** The operator CLI: what the spec calls "issued by the service operator", over the same use cases. */
@Module({})
export class CliModule {
  /**
   * The CLI for one command line: the platform (configuration, database) plus the group of the
   * command named, or every command for help and unknown names (cli-commands.ts).
   */
  static async forCommand(commandName: string | undefined): Promise<DynamicModule> {
    const parts = await Promise.all(groupsFor(commandName).map((group) => group.load()));
    return {
      module: CliModule,
      imports: [PlatformModule.forRoot({ role: 'cli' }), ...parts.flatMap((p) => p.imports)],
      providers: [CliProgram, ...parts.flatMap((p) => p.commands)],
    };
  }
}
