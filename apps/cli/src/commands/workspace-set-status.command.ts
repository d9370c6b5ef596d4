import { Command, Option } from 'nest-commander';
import { WORKSPACE_STATUSES, WorkspaceAdministration } from '@outreach/workspaces';
import { OperatorCommand } from '../operator-command';
import { parseId, parseOneOf } from '../option-parsers';

interface WorkspaceSetStatusOptions {
  workspace: string;
  status: string;
}

@Command({
  name: 'workspace:set-status',
  description: 'Approve, suspend, deactivate or delete a workspace. Prints {workspace}.',
})
export class WorkspaceSetStatusCommand extends OperatorCommand<WorkspaceSetStatusOptions> {
  constructor(private readonly workspaces: WorkspaceAdministration) {
    super();
  }

  protected async execute(options: WorkspaceSetStatusOptions) {
    return { workspace: await this.workspaces.setStatus(options.workspace, options.status) };
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--status <status>', description: WORKSPACE_STATUSES.join('|'), required: true })
  parseStatus(raw: string): string {
    return parseOneOf('--status', raw, WORKSPACE_STATUSES);
  }
}
