import { AppError } from '@outreach/core';
import { assertCustomExtractionKeys, ExtractionKey } from './extraction-keys';

export const CAMPAIGN_TYPE_STATUSES = ['ACTIVE', 'ARCHIVED'] as const;
export type CampaignTypeStatus = (typeof CAMPAIGN_TYPE_STATUSES)[number];

export interface CampaignTypeProps {
  id: string;
  /** Null for a platform type (offered to every workspace, read-only). */
  workspaceId: string | null;
  name: string;
  description: string;
  extractionKeys: ExtractionKey[];
  status: CampaignTypeStatus;
  createdAt: Date;
  updatedAt: Date;
}

export interface CampaignTypeChanges {
  name?: string;
  description?: string;
  extractionKeys?: ExtractionKey[];
}

/** A reusable set of extraction keys. Workspaces own theirs; platform types are shared and read-only. */
export class CampaignType {
  private constructor(private props: CampaignTypeProps) {}

  static create(input: { id: string; workspaceId: string; name: string; description?: string; extractionKeys?: ExtractionKey[]; now: Date }): CampaignType {
    const type = new CampaignType({
      id: input.id,
      workspaceId: input.workspaceId,
      name: input.name,
      description: input.description ?? '',
      extractionKeys: [],
      status: 'ACTIVE',
      createdAt: input.now,
      updatedAt: input.now,
    });
    type.update({ extractionKeys: input.extractionKeys ?? [] }, input.now, input.workspaceId);
    return type;
  }

  static restore(props: CampaignTypeProps): CampaignType {
    return new CampaignType(structuredClone(props));
  }

  get id(): string {
    return this.props.id;
  }

  /** Whether this workspace owns it (and so may change it). */
  isOwnedBy(workspaceId: string): boolean {
    return this.props.workspaceId === workspaceId;
  }

  /** Visible to this workspace: its own active types and the active platform types. */
  isVisibleTo(workspaceId: string): boolean {
    return this.props.status === 'ACTIVE' && (this.props.workspaceId === null || this.props.workspaceId === workspaceId);
  }

  update(changes: CampaignTypeChanges, now: Date, workspaceId: string): void {
    this.assertOwnedBy(workspaceId);
    if (changes.extractionKeys !== undefined) assertCustomExtractionKeys(changes.extractionKeys);
    if (changes.name !== undefined) this.props.name = changes.name;
    if (changes.description !== undefined) this.props.description = changes.description;
    if (changes.extractionKeys !== undefined) this.props.extractionKeys = structuredClone(changes.extractionKeys);
    this.props.updatedAt = now;
  }

  /** DELETE archives: campaigns that use the type keep their keys; new campaigns cannot pick it. */
  archive(now: Date, workspaceId: string): void {
    this.assertOwnedBy(workspaceId);
    this.props.status = 'ARCHIVED';
    this.props.updatedAt = now;
  }

  private assertOwnedBy(workspaceId: string): void {
    if (this.props.workspaceId !== workspaceId) {
      throw new AppError('forbidden', { message: 'platform campaign types are read-only' });
    }
  }

  toProps(): CampaignTypeProps {
    return structuredClone(this.props);
  }
}
