import { timingSafeEqual } from 'node:crypto';
import { AppError } from '@outreach/core';
import { roleGrants } from '@outreach/core';
import type { AccessRule } from './access.decorators';
import type { Principal, ResolvedApiKey } from './principal';

export interface RouteAccess {
  rule: AccessRule;
  /** Whether the request path is under /v1. */
  v1: boolean;
  humanOnly: boolean;
  feature?: { feature: string; code: AppError['code'] };
}

/**
 * The order of checks of decisions.md 4.7, as one pure function so it reads top to bottom:
 * invalid key → workspace state → acting member → /v1 restriction → scope → feature.
 */
export function authorize(
  presentedHash: Buffer,
  resolved: ResolvedApiKey | null,
  access: RouteAccess,
  now: Date,
): Principal {
  if (
    !resolved ||
    !constantTimeEqual(resolved.keyHash, presentedHash) ||
    resolved.revoked ||
    (resolved.expiresAt !== null && resolved.expiresAt.getTime() <= now.getTime()) ||
    resolved.workspace.status === 'DELETED'
  ) {
    throw new AppError('invalid_api_key');
  }
  if (resolved.workspace.status === 'PENDING_APPROVAL') throw new AppError('workspace_pending_approval');
  if (resolved.workspace.status === 'SUSPENDED') throw new AppError('workspace_suspended');
  if (resolved.member.status !== 'ACTIVE') throw new AppError('api_key_owner_inactive');

  const scopeless = resolved.scopes.length === 0;
  if (scopeless && !access.v1) throw new AppError('api_key_not_scoped');

  if (access.rule.kind === 'scope') {
    const { scope } = access.rule;
    const keyAllows = scopeless || resolved.scopes.includes(scope);
    if (!keyAllows || !roleGrants(resolved.member.role, scope)) {
      throw new AppError('forbidden', { requiredPermission: scope, message: `This key lacks the ${scope} permission` });
    }
  }
  if (access.humanOnly) throw new AppError('api_key_not_allowed');
  if (access.feature && !resolved.workspace.features.includes(access.feature.feature)) {
    throw new AppError(access.feature.code);
  }

  return {
    keyId: resolved.keyId,
    workspaceId: resolved.workspace.id,
    scopes: resolved.scopes,
    workspace: resolved.workspace,
    member: resolved.member,
  };
}

function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
