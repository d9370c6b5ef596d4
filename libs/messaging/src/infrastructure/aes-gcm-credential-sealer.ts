import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { CredentialSealer } from '../application/messaging.ports';

const VERSION = 'v1';

/**
 * Provider credentials at rest (decisions.md 30.2): AES-256-GCM, `v1.<iv>.<tag>.<ciphertext>`
 * (base64url), a fresh 96-bit IV per seal and the row's identity as associated data. The key is
 * derived (HKDF-SHA256) from FUNCTION_SECRETS_KEY, the service's key for secrets it must read back,
 * with its own label, like the result-webhook secrets: the uses never share a key.
 */
@Injectable()
export class AesGcmCredentialSealer extends CredentialSealer {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    super();
    this.key = Buffer.from(hkdfSync('sha256', config.functionSecretsKey, Buffer.alloc(0), 'outreach messaging credentials v1', 32));
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('sealed credentials: unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
