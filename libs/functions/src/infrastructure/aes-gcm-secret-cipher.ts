import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { SecretCipher } from '../application/function.ports';

const VERSION = 'v1';

/**
 * AES-256-GCM with the FUNCTION_SECRETS_KEY: `v1.<iv>.<tag>.<ciphertext>` (base64url), a fresh
 * 96-bit IV per seal, and the row's identity as additional data so a sealed value cannot be
 * moved to another row.
 */
@Injectable()
export class AesGcmSecretCipher extends SecretCipher implements OnModuleInit {
  constructor(private readonly config: AppConfig) {
    super();
  }

  onModuleInit(): void {
    if (this.config.functionSecretsKeyIsDefault && this.config.nodeEnv !== 'test') {
      new Logger('FunctionSecrets').warn('FUNCTION_SECRETS_KEY is not set: using the development key (not for production)');
    }
  }

  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.config.functionSecretsKey, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('sealed secret: unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.config.functionSecretsKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
