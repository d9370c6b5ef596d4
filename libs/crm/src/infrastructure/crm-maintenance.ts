import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@outreach/core';
import { RateLimitedLog, RepeatingTask } from '@outreach/platform';
import { CrmWebhooks } from '../application/crm-webhooks.service';

/** Every worker's own timer: deferred CRM webhook events into the CRM_WEBHOOK campaign that now runs. */
@Injectable()
export class CrmMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new RateLimitedLog(new Logger('CrmMaintenance'));
  private readonly loop = new RepeatingTask(
    () => this.webhooks.drain(),
    () => this.config.crmWebhookDrainMs,
    (error) => this.log.warn(`draining deferred CRM webhook events failed: ${error.message}`),
  );

  constructor(
    private readonly webhooks: CrmWebhooks,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start(this.config.crmWebhookDrainMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
