import { Command, Option } from 'nest-commander';
import { WORKSPACE_FEATURES, WorkspaceAdministration } from '@outreach/workspaces';
import { UsageError } from '../cli-errors';
import { OperatorCommand } from '../operator-command';
import { Clearable, parseBoolean, parseFeatures, parseId, parseInteger, parseIsoDate, parseOrNone } from '../option-parsers';

type WorkspaceSettings = Parameters<WorkspaceAdministration['update']>[1];

interface WorkspaceUpdateOptions {
  workspace: string;
  name?: string;
  concurrency?: number;
  agentQuota?: number;
  features?: string[];
  trialUntil?: Clearable<Date>;
  frozen?: boolean;
  currency?: string;
  rateLimit?: Clearable<number>;
}

@Command({
  name: 'workspace:update',
  description: 'Change workspace settings (decisions.md 5.2). Prints {workspace}.',
})
export class WorkspaceUpdateCommand extends OperatorCommand<WorkspaceUpdateOptions> {
  constructor(private readonly workspaces: WorkspaceAdministration) {
    super();
  }

  protected async execute({ workspace, ...options }: WorkspaceUpdateOptions) {
    const settings: WorkspaceSettings = {
      name: options.name,
      concurrency: options.concurrency,
      agentQuota: options.agentQuota,
      featureChanges: options.features,
      trialUntil: options.trialUntil?.value,
      activityFrozen: options.frozen,
      currency: options.currency,
      rateLimitPerMinute: options.rateLimit?.value,
    };
    if (Object.values(settings).every((value) => value === undefined)) {
      throw new UsageError('nothing to update: give at least one setting option');
    }
    return { workspace: await this.workspaces.update(workspace, settings) };
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--name <name>', description: 'display name (1-100 characters)' })
  parseName(raw: string): string {
    return raw;
  }

  @Option({ flags: '--concurrency <n>', description: 'concurrency allocation (1-10000)' })
  parseConcurrency(raw: string): number {
    return parseInteger('--concurrency', raw);
  }

  @Option({ flags: '--agent-quota <n>', description: 'how many agents the workspace may hold (0-100000)' })
  parseAgentQuota(raw: string): number {
    return parseInteger('--agent-quota', raw);
  }

  @Option({
    flags: '--features <changes>',
    description: `comma-separated +feature (on) / -feature (off); features: ${WORKSPACE_FEATURES.join(', ')}`,
  })
  parseFeatures(raw: string): string[] {
    return parseFeatures('--features', raw, WORKSPACE_FEATURES, { toggles: true });
  }

  @Option({ flags: '--trial-until <iso|none>', description: 'end of the trial (ISO-8601), or none' })
  parseTrialUntil(raw: string): Clearable<Date> {
    return parseOrNone(raw, (value) => parseIsoDate('--trial-until', value));
  }

  @Option({ flags: '--frozen <true|false>', description: 'freeze activity (starts and calls answer 402 activity_frozen)' })
  parseFrozen(raw: string): boolean {
    return parseBoolean('--frozen', raw);
  }

  @Option({ flags: '--currency <code>', description: 'wallet currency, ISO 4217' })
  parseCurrency(raw: string): string {
    return raw;
  }

  @Option({ flags: '--rate-limit <n|none>', description: 'requests per minute per key, or none for the default' })
  parseRateLimit(raw: string): Clearable<number> {
    return parseOrNone(raw, (value) => parseInteger('--rate-limit', value));
  }
}
