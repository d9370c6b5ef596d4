import { AppError } from '@outreach/core';

export const WORKSPACE_STATUSES = ['ACTIVE', 'PENDING_APPROVAL', 'SUSPENDED', 'DELETED', 'INACTIVE'] as const;
export type WorkspaceStatus = (typeof WORKSPACE_STATUSES)[number];

/** Per-workspace switches later modules consult (decisions.md 5.2). */
export const WORKSPACE_FEATURES = [
  'api_results',
  'workflows',
  'whatsapp',
  'email',
  'crm',
  'exports',
  'knowledge',
  'inbound',
] as const;
export type WorkspaceFeature = (typeof WORKSPACE_FEATURES)[number];

export interface WorkspaceProps {
  id: string;
  name: string;
  status: WorkspaceStatus;
  concurrency: number;
  agentQuota: number;
  features: WorkspaceFeature[];
  trialUntil: Date | null;
  activityFrozen: boolean;
  currency: string;
  rateLimitPerMinute: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WorkspaceSettings {
  name?: string;
  concurrency?: number;
  agentQuota?: number;
  /** `+feature` turns on, `-feature` off; a bare name turns on. */
  featureChanges?: string[];
  trialUntil?: Date | null;
  activityFrozen?: boolean;
  currency?: string;
  rateLimitPerMinute?: number | null;
}

/** The tenant. Everything a key can see belongs to exactly one workspace. */
export class Workspace {
  private constructor(private props: WorkspaceProps) {}

  static create(input: {
    id: string;
    name: string;
    status?: WorkspaceStatus;
    concurrency: number;
    agentQuota: number;
    features?: string[];
    currency: string;
    now: Date;
  }): Workspace {
    const workspace = new Workspace({
      id: input.id,
      name: '',
      status: 'ACTIVE',
      concurrency: 1,
      agentQuota: 0,
      features: [],
      trialUntil: null,
      activityFrozen: false,
      currency: 'USD',
      rateLimitPerMinute: null,
      createdAt: input.now,
      updatedAt: input.now,
    });
    workspace.setStatus(input.status ?? 'ACTIVE', input.now);
    workspace.update(
      {
        name: input.name,
        concurrency: input.concurrency,
        agentQuota: input.agentQuota,
        featureChanges: input.features ?? [],
        currency: input.currency,
      },
      input.now,
    );
    return workspace;
  }

  static restore(props: WorkspaceProps): Workspace {
    return new Workspace({ ...props, features: [...props.features] });
  }

  get id(): string {
    return this.props.id;
  }

  get status(): WorkspaceStatus {
    return this.props.status;
  }

  hasFeature(feature: WorkspaceFeature): boolean {
    return this.props.features.includes(feature);
  }

  /** Whether it is readable at all: a deleted workspace is gone for every key. */
  get isDeleted(): boolean {
    return this.props.status === 'DELETED';
  }

  setStatus(status: string, now: Date): void {
    if (!(WORKSPACE_STATUSES as readonly string[]).includes(status)) {
      throw new AppError('invalid_request', { message: `status must be one of ${WORKSPACE_STATUSES.join(', ')}` });
    }
    if (this.props.status === 'DELETED' && status !== 'DELETED') {
      throw new AppError('invalid_request', { message: 'a deleted workspace cannot be reactivated' });
    }
    this.props.status = status as WorkspaceStatus;
    this.props.updatedAt = now;
  }

  /** Applies every change or none: one invalid setting leaves the workspace as it was. */
  update(settings: WorkspaceSettings, now: Date): void {
    const problems: string[] = [];
    const next: WorkspaceProps = { ...this.props, features: [...this.props.features] };
    if (settings.name !== undefined) {
      const name = settings.name.trim();
      if (name.length < 1 || name.length > 100) problems.push('name must be 1-100 characters');
      else next.name = name;
    }
    if (settings.concurrency !== undefined) {
      if (!Number.isInteger(settings.concurrency) || settings.concurrency < 1 || settings.concurrency > 10000) {
        problems.push('concurrency must be a whole number from 1 to 10000');
      } else next.concurrency = settings.concurrency;
    }
    if (settings.agentQuota !== undefined) {
      if (!Number.isInteger(settings.agentQuota) || settings.agentQuota < 0 || settings.agentQuota > 100000) {
        problems.push('agent quota must be a whole number from 0 to 100000');
      } else next.agentQuota = settings.agentQuota;
    }
    if (settings.rateLimitPerMinute !== undefined) {
      const limit = settings.rateLimitPerMinute;
      if (limit !== null && (!Number.isInteger(limit) || limit < 1)) problems.push('rate limit must be a positive whole number');
      else next.rateLimitPerMinute = limit;
    }
    if (settings.currency !== undefined) {
      if (!/^[A-Z]{3}$/.test(settings.currency)) problems.push('currency must be an ISO 4217 code such as USD');
      else next.currency = settings.currency;
    }
    if (settings.trialUntil !== undefined) next.trialUntil = settings.trialUntil;
    if (settings.activityFrozen !== undefined) next.activityFrozen = settings.activityFrozen;
    if (settings.featureChanges !== undefined) {
      const features = new Set(next.features);
      for (const change of settings.featureChanges) {
        const off = change.startsWith('-');
        const name = change.replace(/^[+-]/, '');
        if (!(WORKSPACE_FEATURES as readonly string[]).includes(name)) {
          problems.push(`unknown feature ${JSON.stringify(name)} (known: ${WORKSPACE_FEATURES.join(', ')})`);
          continue;
        }
        if (off) features.delete(name as WorkspaceFeature);
        else features.add(name as WorkspaceFeature);
      }
      next.features = WORKSPACE_FEATURES.filter((f) => features.has(f));
    }
    if (problems.length > 0) throw new AppError('invalid_request', { message: problems.join('; ') });
    this.props = { ...next, updatedAt: now };
  }

  toProps(): WorkspaceProps {
    return { ...this.props, features: [...this.props.features] };
  }
}
