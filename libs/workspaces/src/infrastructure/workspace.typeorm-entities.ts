import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'workspaces' })
export class WorkspaceEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') status: string;
  @Column('integer') concurrency: number;
  @Column({ name: 'agent_quota', type: 'integer' }) agentQuota: number;
  @Column({ type: 'text', array: true }) features: string[];
  @Column({ name: 'trial_until', type: 'timestamptz', nullable: true }) trialUntil: Date | null;
  @Column({ name: 'activity_frozen', type: 'boolean' }) activityFrozen: boolean;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ name: 'rate_limit_per_minute', type: 'integer', nullable: true }) rateLimitPerMinute: number | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

@Entity({ name: 'members' })
export class MemberEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'workspace_id', type: 'uuid' }) workspaceId: string;
  @Column('text') email: string;
  @Column('text') role: string;
  @Column('text') status: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'workspace_id', type: 'uuid' }) workspaceId: string;
  @Column({ name: 'member_id', type: 'uuid' }) memberId: string;
  @Column('text') name: string;
  @Column('text') prefix: string;
  @Column({ name: 'key_hash', type: 'bytea' }) keyHash: Buffer;
  @Column({ type: 'text', array: true }) scopes: string[];
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
