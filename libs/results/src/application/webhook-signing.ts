import { Injectable } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { signatureHeader } from '../domain/webhook-signature';

/** The signing secrets (unsealed, the current one first) of the workspace's enabled result webhook endpoint at `url`; null when there is none. */
export abstract class EndpointSigningSecrets {
  abstract forUrl(workspaceId: string, url: string, now: Date): Promise<string[] | null>;
}

/**
 * Standard Webhooks headers for a POST the service makes on the workspace's behalf beside the
 * result deliveries (a journey's webhook step, decisions.md 37.14): signed exactly as deliveries
 * are, with the secrets of the workspace's result webhook endpoint of that URL.
 */
@Injectable()
export class WebhookSigning {
  constructor(
    private readonly secrets: EndpointSigningSecrets,
    private readonly clock: Clock,
  ) {}

  /** The headers, or null when the workspace has no enabled result webhook endpoint at `url`. */
  async headers(workspaceId: string, url: string, webhookId: string, body: string): Promise<Record<string, string> | null> {
    const secrets = await this.secrets.forUrl(workspaceId, url, this.clock.now());
    if (!secrets || secrets.length === 0) return null;
    // As deliveries: the timestamp is the moment of sending by the system clock.
    const timestamp = Math.floor(Date.now() / 1000);
    return {
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, webhookId, timestamp, body),
    };
  }
}
