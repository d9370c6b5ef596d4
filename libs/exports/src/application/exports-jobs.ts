import type { OutboxJob } from '@outreach/core';

export enum ExportsQueue {
  Exports = 'exports',
}

export enum ExportsJob {
  /** `{ exportId }`: write the export's file (from scratch, also after a crash). */
  Run = 'run',
}

export function runExportJob(exportId: string): OutboxJob {
  return { queue: ExportsQueue.Exports, name: ExportsJob.Run, payload: { exportId }, jobId: `export-${exportId}` };
}
