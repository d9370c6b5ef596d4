import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, isUuid } from '@outreach/core';
import { Member, MemberProps } from '../domain/member';
import { MemberRepository, WorkspaceRepository } from './workspace.ports';

export type MemberView = Omit<MemberProps, 'createdAt'> & { createdAt: string };

function memberView(props: MemberProps): MemberView {
  return { ...props, createdAt: props.createdAt.toISOString() };
}

@Injectable()
export class MemberAdministration {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly members: MemberRepository,
    private readonly clock: Clock,
  ) {}

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
