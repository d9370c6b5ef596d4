import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock } from '@outreach/core';
import { CampaignType, CampaignTypeProps } from '../domain/campaign-type.aggregate';
import { ExtractionKey, ExtractionKeyInput, toExtractionKeys } from '../domain/extraction-keys';
import { CampaignTypeRepository } from './campaigns.ports';

export interface CampaignTypeView {
  id: string;
  name: string;
  description: string;
  extractionKeys: ExtractionKey[];
  status: string;
  isOwn: boolean;
}

function view(props: CampaignTypeProps, workspaceId: string): CampaignTypeView {
  return {
    id: props.id,
    name: props.name,
    description: props.description,
    extractionKeys: props.extractionKeys,
    status: props.status,
    isOwn: props.workspaceId === workspaceId,
  };
}

/** Campaign types: reusable sets of extraction keys (workspace-owned, plus read-only platform types). */
@Injectable()
export class CampaignTypesService {
  constructor(
    private readonly types: CampaignTypeRepository,
    private readonly clock: Clock,
  ) {}

  async create(
    workspaceId: string,
    input: { name: string; description?: string; extractionKeys?: ExtractionKeyInput[] },
  ): Promise<CampaignTypeView> {
    const type = CampaignType.create({
      id: randomUUID(),
      workspaceId,
      name: input.name,
      description: input.description,
      extractionKeys: toExtractionKeys(input.extractionKeys ?? []),
      now: this.clock.now(),
    });
    await this.types.insert(type);
    return view(type.toProps(), workspaceId);
  }

  async list(workspaceId: string): Promise<CampaignTypeView[]> {
    return (await this.types.listVisible(workspaceId)).map((t) => view(t.toProps(), workspaceId));
  }

  async get(workspaceId: string, id: string): Promise<CampaignTypeView> {
    return view((await this.require(workspaceId, id)).toProps(), workspaceId);
  }

  async update(
    workspaceId: string,
    id: string,
    changes: { name?: string; description?: string; extractionKeys?: ExtractionKeyInput[] },
  ): Promise<CampaignTypeView> {
    if (Object.values(changes).every((v) => v === undefined)) throw new AppError('no_fields_to_update');
    const type = await this.require(workspaceId, id);
    type.update(
      {
        name: changes.name,
        description: changes.description,
        extractionKeys: changes.extractionKeys ? toExtractionKeys(changes.extractionKeys) : undefined,
      },
      this.clock.now(),
      workspaceId,
    );
    await this.types.update(type);
    return view(type.toProps(), workspaceId);
  }

  async archive(workspaceId: string, id: string): Promise<void> {
    const type = await this.require(workspaceId, id);
    type.archive(this.clock.now(), workspaceId);
    await this.types.update(type);
  }

  /**
   * For campaigns: the ACTIVE type a campaign may pick (400 campaign_type_not_found otherwise).
   * Archived types stay readable for the campaigns that already use them (`keysOf`).
   */
  async requireUsable(workspaceId: string, id: string): Promise<CampaignType> {
    const type = await this.types.findById(id);
    if (!type || !type.isVisibleTo(workspaceId)) {
      throw new AppError('campaign_type_not_found', { message: `no active campaign type ${id}` });
    }
    return type;
  }

  /** Names and keys of the types campaigns use, archived ones included (never another workspace's). */
  async describe(workspaceId: string, ids: readonly string[]): Promise<Map<string, { name: string; keys: ExtractionKey[] }>> {
    const unique = [...new Set(ids)];
    const found = await this.types.findManyByIds(unique);
    return new Map(
      found
        .map((t) => t.toProps())
        .filter((p) => p.workspaceId === null || p.workspaceId === workspaceId)
        .map((p) => [p.id, { name: p.name, keys: p.extractionKeys }]),
    );
  }

  /** The keys of the type a campaign has now (archived types keep counting; none: []). */
  async currentKeys(workspaceId: string, typeId: string | null): Promise<ExtractionKey[]> {
    if (typeId === null) return [];
    return (await this.describe(workspaceId, [typeId])).get(typeId)?.keys ?? [];
  }

  private async require(workspaceId: string, id: string): Promise<CampaignType> {
    const type = await this.types.findById(id);
    if (!type || !type.isVisibleTo(workspaceId)) throw new AppError('not_found', { message: `no campaign type ${id}` });
    return type;
  }
}
