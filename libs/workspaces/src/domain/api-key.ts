import { AppError, isScope, Scope } from '@outreach/core';

export interface ApiKeyProps {
  id: string;
  workspaceId: string;
  memberId: string;
  name: string;
  /** Non-secret start of the key, for recognising it in listings. */
  prefix: string;
  /** SHA-256 of the whole key; the key itself is never stored. */
  hash: Buffer;
  scopes: Scope[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** A credential of one workspace, acting for one member, limited to its scopes. */
export class ApiKey {
  private constructor(private props: ApiKeyProps) {}

  static issue(input: {
    id: string;
    workspaceId: string;
    memberId: string;
    name: string;
    prefix: string;
    hash: Buffer;
    scopes: string[];
    expiresAt: Date | null;
    now: Date;
  }): ApiKey {
    const name = input.name.trim();
    if (name.length < 1 || name.length > 100) throw new AppError('invalid_request', { message: 'key name must be 1-100 characters' });
    const unknown = input.scopes.filter((s) => !isScope(s));
    if (unknown.length > 0) throw new AppError('invalid_request', { message: `unknown scopes: ${unknown.join(', ')}` });
    if (input.expiresAt && input.expiresAt.getTime() <= input.now.getTime()) {
      throw new AppError('invalid_request', { message: 'expiry must be in the future' });
    }
    return new ApiKey({
      id: input.id,
      workspaceId: input.workspaceId,
      memberId: input.memberId,
      name,
      prefix: input.prefix,
      hash: input.hash,
      scopes: [...new Set(input.scopes as Scope[])].sort(),
      expiresAt: input.expiresAt,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: input.now,
    });
  }

  static restore(props: ApiKeyProps): ApiKey {
    return new ApiKey({ ...props });
  }

  get id(): string {
    return this.props.id;
  }

  /** Revoking twice is harmless; the first time is kept. */
  revoke(now: Date): void {
    this.props.revokedAt ??= now;
  }

  toProps(): ApiKeyProps {
    return { ...this.props };
  }
}
