import { Injectable } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { WebhookSender, WebhookSigning } from '@outreach/results';
import { StepWebhooks } from '../application/runs.ports';

/**
 * A webhook step's POST (decisions.md 37.14): signed by the results module's signer with the
 * secrets of the workspace's result webhook endpoint at the step's URL, sent by its sender (same
 * timeout, same private-target guard).
 */
@Injectable()
export class SignedStepWebhooks extends StepWebhooks {
  constructor(
    private readonly signing: WebhookSigning,
    private readonly sender: WebhookSender,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async post(workspaceId: string, url: string, webhookId: string, body: string): Promise<string | null> {
    const headers = await this.signing.headers(workspaceId, url, webhookId, body);
    if (!headers) return 'no_webhook_endpoint';
    const response = await this.sender.send({
      url,
      body,
      headers: { ...headers, 'user-agent': 'outreach-workflows/1.0' },
      timeoutMs: this.config.webhookTimeoutMs,
      allowPrivateTargets: this.config.webhookAllowPrivateTargets,
    });
    if (response.statusCode !== null && response.statusCode >= 200 && response.statusCode < 300) return null;
    return response.statusCode !== null ? `http_${response.statusCode}` : (response.error ?? 'no_response');
  }
}
