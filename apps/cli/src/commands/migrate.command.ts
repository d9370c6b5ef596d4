import { Command } from 'nest-commander';
import { AppConfig, registeredMigrations, runMigrations } from '@outreach/platform';
import { OperatorCommand } from '../operator-command';

@Command({
  name: 'migrate',
  description: 'Apply pending database migrations (under the migration lock). Prints {applied}.',
})
export class MigrateCommand extends OperatorCommand<Record<string, never>> {
  constructor(private readonly config: AppConfig) {
    super();
  }

  protected async execute() {
    return { applied: await runMigrations(this.config, registeredMigrations()) };
  }
}
