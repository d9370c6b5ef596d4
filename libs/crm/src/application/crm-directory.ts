import { Injectable } from '@nestjs/common';
import { CrmDirectory } from '@outreach/campaigns';
import { isUuid } from '@outreach/core';
import { CrmConnectionRepository, CrmImportRepository } from './crm.ports';

/** What campaigns asks of the crm module (bound into campaigns' CrmDirectoryBinding at start). */
@Injectable()
export class CrmModuleDirectory extends CrmDirectory {
  constructor(
    private readonly connections: CrmConnectionRepository,
    private readonly imports: CrmImportRepository,
  ) {
    super();
  }

  async connectionStatus(workspaceId: string, connectionId: string): Promise<string | null> {
    if (!isUuid(connectionId)) return null;
    return (await this.connections.find(workspaceId, connectionId))?.status ?? null;
  }

  hasImportInProgress(workspaceId: string, campaignId: string): Promise<boolean> {
    return this.imports.hasInProgress(workspaceId, campaignId);
  }
}
