import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';

/**
 * Carrier credentials at rest (decisions.md 27.5): AES-256-GCM, bound to their workspace and
 * carrier (associated data), under a key derived (HKDF-SHA256) from FUNCTION_SECRETS_KEY with its
 * own label, as result-webhook secrets are. Opened only to call the provider or check its
 * signatures; never answered by the API, never logged.
 */
@Injectable()
export class CarrierCredentialSealer {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.functionSecretsKey, Buffer.alloc(0), 'outreach carrier credentials v1', 32));
  }

  seal(credentials: Record<string, string>, workspaceId: string, carrier: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(`${workspaceId}/${carrier}`));
    const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string, workspaceId: string, carrier: string): Record<string, string> {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(`${workspaceId}/${carrier}`));
    decipher.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as Record<string, string>;
  }
}
