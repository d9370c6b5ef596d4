import { Module } from '@nestjs/common';
import { CallsCoreModule } from '@outreach/calls';
import { CampaignsCoreModule } from '@outreach/campaigns';
import { workerQueues } from '@outreach/platform';
import { ExportCounts } from './application/export-counts';
import { ExportQueries } from './application/export-queries';
import { ExportsQueue } from './application/exports-jobs';
import { ExportCampaigns, ExportJobRepository, LeadSource, RowLimits, SheetWriters } from './application/exports.ports';
import { ExportsHousekeeping } from './application/exports-housekeeping';
import { LeadCounter } from './application/lead-counter';
import { RequestExport } from './application/request-export.use-case';
import { RunExport } from './application/run-export.use-case';
import { ExportsController } from './http/exports.controller';
import { CampaignLeadSource, CampaignViewsExportCampaigns } from './infrastructure/campaign-lead-source';
import { ExportsMaintenance } from './infrastructure/exports-maintenance';
import { ExportsProcessor } from './infrastructure/exports.processor';
import { FILE_STORE_PROVIDER } from './infrastructure/file-store.provider';
import { SqlExportJobRepository } from './infrastructure/persistence/sql-export-job.repository';
import { SheetRowLimits } from './infrastructure/sheet-row-limits';
import { StreamingSheetWriters } from './infrastructure/sheet-writers';

const useCases = [ExportCounts, LeadCounter, RequestExport, RunExport, ExportQueries, ExportsHousekeeping];

/** Export jobs, counts and segments without controllers: for the API and the worker. */
@Module({
  imports: [CampaignsCoreModule, CallsCoreModule],
  providers: [
    ...useCases,
    { provide: ExportJobRepository, useClass: SqlExportJobRepository },
    { provide: ExportCampaigns, useClass: CampaignViewsExportCampaigns },
    { provide: LeadSource, useClass: CampaignLeadSource },
    { provide: SheetWriters, useClass: StreamingSheetWriters },
    { provide: RowLimits, useClass: SheetRowLimits },
    FILE_STORE_PROVIDER,
  ],
  exports: useCases,
})
export class ExportsCoreModule {}

/** The HTTP face: counts, segments, export jobs and downloads. */
@Module({ imports: [ExportsCoreModule], controllers: [ExportsController] })
export class ExportsModule {}

/** The worker side: queue `exports` and the expired-file housekeeping. */
@Module({
  imports: [ExportsCoreModule, workerQueues(ExportsQueue.Exports)],
  providers: [ExportsProcessor, ExportsMaintenance],
})
export class ExportsWorkerModule {}
