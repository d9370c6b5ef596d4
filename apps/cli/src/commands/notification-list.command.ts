import { Command, Option } from 'nest-commander';
import { NotificationQueries } from '@outreach/notifications';
import { OperatorCommand } from '../operator-command';
import { UsageError } from '../cli-errors';
import { parseId, parseInteger } from '../option-parsers';

interface NotificationListOptions {
  workspace: string;
  campaign?: string;
  limit?: number;
}

@Command({
  name: 'notification:list',
  description:
    "List a workspace's campaign notifications, newest first: one per member named in a campaign's notificationUserIds and event (campaign_completed, campaign_paused with its reason, campaign_credit_exhausted), with its e-mail status. Prints {notifications}.",
})
export class NotificationListCommand extends OperatorCommand<NotificationListOptions> {
  constructor(private readonly notifications: NotificationQueries) {
    super();
  }

  protected async execute(options: NotificationListOptions) {
    return { notifications: await this.notifications.list({ workspaceId: options.workspace, campaignId: options.campaign, limit: options.limit }) };
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--campaign <id>', description: 'only this campaign' })
  parseCampaign(raw: string): string {
    return parseId('--campaign', raw);
  }

  @Option({ flags: '--limit <n>', description: 'at most this many (1-1000, default 100)' })
  parseLimit(raw: string): number {
    const limit = parseInteger('--limit', raw);
    if (limit < 1 || limit > 1000) throw new UsageError(`--limit must be between 1 and 1000, got ${limit}`);
    return limit;
  }
}
