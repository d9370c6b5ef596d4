import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { MemberRole, Scope } from '@outreach/core';

export type WorkspaceStatus = 'ACTIVE' | 'PENDING_APPROVAL' | 'SUSPENDED' | 'DELETED' | 'INACTIVE';
export type MemberStatus = 'ACTIVE' | 'REMOVED' | 'SUSPENDED';

/** What an API key stands for, as read from the database for one request. */
export interface ResolvedApiKey {
  keyId: string;
  keyHash: Buffer;
  revoked: boolean;
  expiresAt: Date | null;
  scopes: Scope[];
  workspace: {
    id: string;
    name: string;
    status: WorkspaceStatus;
    features: string[];
    concurrency: number;
    rateLimitPerMinute: number | null;
  };
  member: { id: string; role: MemberRole; status: MemberStatus };
}

/** The authenticated caller of a request: one key, one workspace, one acting member. */
export interface Principal {
  keyId: string;
  workspaceId: string;
  scopes: Scope[];
  workspace: ResolvedApiKey['workspace'];
  member: ResolvedApiKey['member'];
}

export type RequestWithPrincipal = { principal?: Principal; id?: string };

/** The caller of the current request (only on routes that require a key). */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without an API key');
  return principal;
});
