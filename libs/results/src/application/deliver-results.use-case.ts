import { Injectable } from '@nestjs/common';
import { ContactTimeline } from '@outreach/campaigns';
import { AppConfig, Clock, UnitOfWork } from '@outreach/core';
import { judgeResponse, nextRetryDelayMs, parseRetryAfter } from '../domain/delivery-schedule';
import { signatureHeader } from '../domain/webhook-signature';
import { DeliveryStore, WebhookEndpointStore, WebhookSender } from './results.ports';

/** Beyond the request timeout, how long a claimed delivery stays leased before another sender may take it. */
const LEASE_GRACE_MS = 60_000;
const SWEEP_CONCURRENCY = 8;

export interface AttemptReport {
  deliveryId: string;
  /** What happened: sent and accepted, to be retried, failed for good, or nothing (not due / not ours). */
  outcome: 'delivered' | 'retry' | 'failed' | 'canceled' | 'skipped';
  /** When the next try is due (outcome retry). */
  nextAttemptAt: Date | null;
}

/**
 * Result webhook delivery, at least once: a due PENDING delivery is leased, signed the Standard
 * Webhooks way, POSTed, and its attempt recorded. 2xx → SUCCEEDED; 410 → FAILED and the endpoint
 * switched off; anything else → PENDING again at the next back-off step (Retry-After honoured)
 * until the schedule runs out (about three days) → FAILED. Due times live in Postgres and come
 * from the clock; queue delays are only wake-up hints, and the sweep finds whatever is due.
 */
@Injectable()
export class DeliverResults {
  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly endpoints: WebhookEndpointStore,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
    private readonly timeline: ContactTimeline,
  ) {}

  async attempt(deliveryId: string): Promise<AttemptReport> {
    const now = this.clock.now();
    const claimed = await this.deliveries.claim(deliveryId, now, new Date(now.getTime() + this.config.webhookTimeoutMs + LEASE_GRACE_MS));
    if (!claimed) return { deliveryId, outcome: 'skipped', nextAttemptAt: null };
    if (!claimed.target) {
      await this.deliveries.cancel(deliveryId, 'the endpoint was deleted or disabled, or the result expired', now);
      return { deliveryId, outcome: 'canceled', nextAttemptAt: null };
    }

    const number = claimed.attemptCount + 1;
    // The signature's timestamp is the moment of sending by the system clock: receivers check it
    // against their own clocks to refuse replays.
    const timestamp = Math.floor(Date.now() / 1000);
    const { url, secrets, body } = claimed.target;
    const response = await this.sender.send({
      url,
      body,
      timeoutMs: this.config.webhookTimeoutMs,
      allowPrivateTargets: this.config.webhookAllowPrivateTargets,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'outreach-result-webhooks/1.0',
        'webhook-id': claimed.resultId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, claimed.resultId, timestamp, body),
      },
    });
    const at = this.clock.now();
    const attempt = { number, at, statusCode: response.statusCode, error: response.error, durationMs: response.durationMs };

    switch (judgeResponse(response.statusCode)) {
      case 'delivered':
        // The lead's timeline says so in the transaction that records the delivery (decisions.md 29.3).
        await this.uow.run(async () => {
          await this.deliveries.recordAttempt(deliveryId, attempt, { status: 'SUCCEEDED', nextAttemptAt: null });
          await this.timeline.record({
            contactId: claimed.target!.leadId,
            type: 'webhook_delivered',
            at,
            detail: { resultId: claimed.resultId, endpointId: claimed.endpointId, deliveryId, attempt: number, statusCode: response.statusCode },
          });
        });
        return { deliveryId, outcome: 'delivered', nextAttemptAt: null };
      case 'gone':
        await this.deliveries.recordAttempt(deliveryId, attempt, { status: 'FAILED', nextAttemptAt: null });
        await this.endpoints.disable(claimed.endpointId, 'the receiver answered 410 Gone', at);
        return { deliveryId, outcome: 'failed', nextAttemptAt: null };
      case 'retry': {
        const delay = nextRetryDelayMs(number - claimed.retryBase, parseRetryAfter(response.retryAfter, at));
        if (delay === null) {
          await this.deliveries.recordAttempt(deliveryId, attempt, { status: 'FAILED', nextAttemptAt: null });
          return { deliveryId, outcome: 'failed', nextAttemptAt: null };
        }
        const nextAttemptAt = new Date(at.getTime() + delay);
        await this.deliveries.recordAttempt(deliveryId, attempt, { status: 'PENDING', nextAttemptAt });
        return { deliveryId, outcome: 'retry', nextAttemptAt };
      }
    }
  }

  /** Tries every delivery due now (up to `limit`), a few at a time. */
  async sweep(limit = 200): Promise<AttemptReport[]> {
    const ids = await this.deliveries.dueIds(this.clock.now(), limit);
    const reports: AttemptReport[] = [];
    let next = 0;
    const lane = async () => {
      while (next < ids.length) {
        const id = ids[next++];
        reports.push(await this.attempt(id));
      }
    };
    await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, ids.length) }, lane));
    return reports;
  }
}
