import { Command, Option } from 'nest-commander';
import { WORKSPACE_FEATURES, WorkspaceAdministration } from '@outreach/workspaces';
import { OperatorCommand } from '../operator-command';
import { parseFeatures, parseInteger, parseOneOf } from '../option-parsers';

const CREATE_STATUSES = ['ACTIVE', 'PENDING_APPROVAL', 'SUSPENDED'] as const;

interface WorkspaceCreateOptions {
  name: string;
  status?: string;
  concurrency?: number;
  agentQuota?: number;
  features?: string[];
  currency?: string;
  ownerEmail?: string;
}

@Command({
  name: 'workspace:create',
  description: 'Create a workspace and its owner member. Prints {workspace, ownerMemberId}.',
})
export class WorkspaceCreateCommand extends OperatorCommand<WorkspaceCreateOptions> {
  constructor(private readonly workspaces: WorkspaceAdministration) {
    super();
  }

  protected execute(options: WorkspaceCreateOptions) {
    return this.workspaces.create(options);
  }

  @Option({ flags: '--name <name>', description: 'display name (1-100 characters)', required: true })
  parseName(raw: string): string {
    return raw;
  }

  @Option({ flags: '--status <status>', description: `initial status: ${CREATE_STATUSES.join('|')} (default ACTIVE)` })
  parseStatus(raw: string): string {
    return parseOneOf('--status', raw, CREATE_STATUSES);
  }

  @Option({ flags: '--concurrency <n>', description: 'concurrency allocation (default from DEFAULT_CONCURRENCY)' })
  parseConcurrency(raw: string): number {
    return parseInteger('--concurrency', raw);
  }

  @Option({ flags: '--agent-quota <n>', description: 'how many agents the workspace may hold (default from DEFAULT_AGENT_QUOTA)' })
  parseAgentQuota(raw: string): number {
    return parseInteger('--agent-quota', raw);
  }

  @Option({ flags: '--features <list>', description: `comma-separated features to enable: ${WORKSPACE_FEATURES.join(', ')}` })
  parseFeatures(raw: string): string[] {
    return parseFeatures('--features', raw, WORKSPACE_FEATURES, { toggles: false });
  }

  @Option({ flags: '--currency <code>', description: 'wallet currency, ISO 4217 (default from DEFAULT_CURRENCY)' })
  parseCurrency(raw: string): string {
    return raw;
  }

  @Option({ flags: '--owner-email <email>', description: "the owner member's e-mail address" })
  parseOwnerEmail(raw: string): string {
    return raw;
  }
}
