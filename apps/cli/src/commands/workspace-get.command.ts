import { Command, Option } from 'nest-commander';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { OperatorCommand } from '../operator-command';
import { parseId } from '../option-parsers';

interface WorkspaceGetOptions {
  workspace: string;
}

@Command({ name: 'workspace:get', description: 'Show a workspace and its settings. Prints {workspace}.' })
export class WorkspaceGetCommand extends OperatorCommand<WorkspaceGetOptions> {
  constructor(private readonly workspaces: WorkspaceAdministration) {
    super();
  }

  protected async execute(options: WorkspaceGetOptions) {
    return { workspace: await this.workspaces.get(options.workspace) };
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }
}
