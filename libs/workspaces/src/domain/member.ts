import { AppError, MEMBER_ROLES, MemberRole } from '@outreach/core';

export const MEMBER_STATUSES = ['ACTIVE', 'REMOVED', 'SUSPENDED'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export interface MemberProps {
  id: string;
  workspaceId: string;
  email: string;
  role: MemberRole;
  status: MemberStatus;
  createdAt: Date;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A person of the workspace. Keys act on behalf of one, and can do at most what they can now. */
export class Member {
  private constructor(private props: MemberProps) {}

  static create(input: { id: string; workspaceId: string; email: string; role?: string; now: Date }): Member {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254) {
      throw new AppError('invalid_request', { message: `not an e-mail address: ${JSON.stringify(input.email)}` });
    }
    const role = input.role ?? 'viewer';
    if (!(MEMBER_ROLES as readonly string[]).includes(role)) {
      throw new AppError('invalid_request', { message: `role must be one of ${MEMBER_ROLES.join(', ')}` });
    }
    return new Member({
      id: input.id,
      workspaceId: input.workspaceId,
      email,
      role: role as MemberRole,
      status: 'ACTIVE',
      createdAt: input.now,
    });
  }

  static restore(props: MemberProps): Member {
    return new Member({ ...props });
  }

  get id(): string {
    return this.props.id;
  }

  get workspaceId(): string {
    return this.props.workspaceId;
  }

  get isActive(): boolean {
    return this.props.status === 'ACTIVE';
  }

  setStatus(status: string): void {
    if (!(MEMBER_STATUSES as readonly string[]).includes(status)) {
      throw new AppError('invalid_request', { message: `status must be one of ${MEMBER_STATUSES.join(', ')}` });
    }
    this.props.status = status as MemberStatus;
  }

  toProps(): MemberProps {
    return { ...this.props };
  }
}
