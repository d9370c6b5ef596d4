import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@outreach/core';
import { MESSAGE_CHANNELS, MessageChannel } from '../domain/opt-out';

export interface UnsubscribeSubject {
  workspaceId: string;
  channel: MessageChannel;
  address: string;
}

/**
 * The per-recipient unsubscribe link of an email (List-Unsubscribe, decisions.md 30.17):
 * `<PUBLIC_BASE_URL>/webhooks/email/unsubscribe/<token>`, the token being the workspace, channel and
 * address (base64url JSON) and an HMAC-SHA256 of them under a key derived from
 * FUNCTION_SECRETS_KEY with its own label. It does not expire: an unsubscribe link works for as
 * long as the email is kept.
 */
@Injectable()
export class UnsubscribeLinks {
  private readonly key: Buffer;
  private readonly base: string;

  constructor(config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.functionSecretsKey, Buffer.alloc(0), 'outreach unsubscribe links v1', 32));
    this.base = config.publicBaseUrl;
  }

  urlFor(workspaceId: string, channel: MessageChannel, address: string): string {
    return `${this.base}/webhooks/email/unsubscribe/${this.token({ workspaceId, channel, address })}`;
  }

  token(subject: UnsubscribeSubject): string {
    const payload = Buffer.from(JSON.stringify([subject.workspaceId, subject.channel, subject.address]), 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The subject of a token, or null when it is not one of ours (forged, altered, malformed). */
  read(token: string): UnsubscribeSubject | null {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined || !/^[\w-]{43}$/.test(mac)) return null;
    // The text is compared, not the bytes it decodes to: the 43rd character carries 2 unused bits,
    // so four spellings decode to the same MAC, and only the one we wrote is ours.
    if (!timingSafeEqual(Buffer.from(this.mac(payload), 'latin1'), Buffer.from(mac, 'latin1'))) return null;
    try {
      const [workspaceId, channel, address] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      if (typeof workspaceId !== 'string' || typeof address !== 'string' || !(MESSAGE_CHANNELS as readonly unknown[]).includes(channel)) return null;
      return { workspaceId, channel: channel as MessageChannel, address };
    } catch {
      return null;
    }
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
