import { Injectable } from '@nestjs/common';
import type { Command } from 'commander';
import { InjectCommander } from 'nest-commander';
import { USAGE_HINT } from './cli-errors';

export const CLI_NAME = 'operator';

const HELP_AFTER = `
Every command prints one JSON document on stdout; with --format table, a table for people
instead (an object as key/value lines, a list as aligned columns). Exit codes: 0 done,
1 refused (the message names the error code), 2 usage error, 3 configuration, database or
unexpected failure.
Configuration comes from the environment (DATABASE_URL, ...), as for the api and the worker.`;

/**
 * Finishes the commander tree nest-commander built from the @Command classes: errors become
 * exceptions (main.ts maps them to exit codes) instead of process.exit calls, stray arguments are
 * refused, and a usage error is one line on stderr that points at --help.
 */
@Injectable()
export class CliProgram {
  constructor(@InjectCommander() private readonly root: Command) {}

  configure(): void {
    this.root.name(CLI_NAME).description('Operator commands of the Outreach Campaign Service').addHelpText('after', HELP_AFTER);
    for (const command of [this.root, ...this.root.commands]) {
      command
        .exitOverride()
        .allowExcessArguments(false)
        .configureOutput({ outputError: (message, write) => write(message.replace(/\n$/, ` ${USAGE_HINT}\n`)) });
    }
  }
}
