import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@outreach/core';
import { CredentialSealer, CrmCredentials } from '../application/crm.ports';

/**
 * CRM credentials at rest: AES-256-GCM, bound to their connection id (associated data), with a key
 * derived (HKDF-SHA256) from FUNCTION_SECRETS_KEY under its own label, as result-webhook secrets are
 * (libs/results webhook-secret.sealer.ts): the service must read them back to call the CRM.
 */
@Injectable()
export class AesCredentialSealer extends CredentialSealer {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    super();
    this.key = Buffer.from(hkdfSync('sha256', config.functionSecretsKey, Buffer.alloc(0), 'outreach crm credentials v1', 32));
  }

  seal(credentials: CrmCredentials, connectionId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(connectionId));
    const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string, connectionId: string): CrmCredentials {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(connectionId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as CrmCredentials;
  }
}
