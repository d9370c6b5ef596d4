import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';

/**
 * Webhook secrets at rest: AES-256-GCM, bound to their endpoint id (associated data). The key is
 * derived (HKDF-SHA256) from FUNCTION_SECRETS_KEY, the service's key for secrets it must read
 * back, with its own label, so the two uses never share a key.
 */
@Injectable()
export class WebhookSecretSealer {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.functionSecretsKey, Buffer.alloc(0), 'outreach result-webhook secrets v1', 32));
  }

  seal(secret: string, endpointId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(endpointId));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string, endpointId: string): string {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(endpointId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
