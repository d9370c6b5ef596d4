import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, isUuid } from '@outreach/core';
import { Member, MemberProps } from '../domain/member';
import { MemberRepository, WorkspaceRepository } from './workspace.ports';

export type MemberView = Omit<MemberProps, 'createdAt'> & { createdAt: string };

function memberView(props: MemberProps): MemberView {
  return { ...props, createdAt: props.createdAt.toISOString() };
}

/** A member other modules may address: notifications go to its e-mail. */
export interface MemberContact {
  id: string;
  email: string;
}

/**
 * Who in a workspace can be addressed (campaign notifications, decisions.md 13.13): the ACTIVE
 * members among the given ids, in the order given.
 */
export abstract class MemberDirectory {
  abstract activeAmong(workspaceId: string, ids: readonly string[]): Promise<MemberContact[]>;
}

@Injectable()
export class MemberAdministration extends MemberDirectory {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly members: MemberRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  async activeAmong(workspaceId: string, ids: readonly string[]): Promise<MemberContact[]> {
    const found = new Map((await this.members.findAmong(workspaceId, ids.filter(isUuid))).map((m) => [m.id, m.toProps()]));
    return ids.flatMap((id) => {
      const member = found.get(id);
      return member && member.status === 'ACTIVE' ? [{ id: member.id, email: member.email }] : [];
    });
  }

  async add(input: { workspaceId: string; email: string; role?: string }): Promise<MemberView> {
    const workspace = isUuid(input.workspaceId) ? await this.workspaces.findById(input.workspaceId) : null;
    if (!workspace) throw new AppError('not_found', { message: `no workspace ${input.workspaceId}` });
    const member = Member.create({ id: randomUUID(), workspaceId: workspace.id, email: input.email, role: input.role, now: this.clock.now() });
    await this.members.insert(member);
    return memberView(member.toProps());
  }

  async setStatus(memberId: string, status: string): Promise<MemberView> {
    const member = isUuid(memberId) ? await this.members.findById(memberId) : null;
    if (!member) throw new AppError('not_found', { message: `no member ${memberId}` });
    member.setStatus(status);
    await this.members.update(member);
    return memberView(member.toProps());
  }
}
