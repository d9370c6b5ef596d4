import type { OutboxJob } from '@outreach/core';

export enum CrmQueue {
  Crm = 'crm',
}

export enum CrmJob {
  /** `{ importId }`: read the import's pages from its stored cursor on (also after a crash). */
  Import = 'import',
}

export function crmImportJob(importId: string): OutboxJob {
  return { queue: CrmQueue.Crm, name: CrmJob.Import, payload: { importId }, jobId: `crm-import-${importId}` };
}
