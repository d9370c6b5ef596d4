import { Injectable } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { ExportJobRepository, FileStore } from './exports.ports';

const BATCH = 100;

/** Deletes the files of exports past expiresAt; their rows stay (GET shows expired, download 410). */
@Injectable()
export class ExportsHousekeeping {
  constructor(
    private readonly jobs: ExportJobRepository,
    private readonly store: FileStore,
    private readonly clock: Clock,
  ) {}

  async run(): Promise<{ filesDeleted: number }> {
    const now = this.clock.now();
    let filesDeleted = 0;
    for (;;) {
      const expired = await this.jobs.expiredWithFiles(now, BATCH);
      for (const job of expired) {
        if (job.fileKey) await this.store.delete(job.fileKey);
        await this.jobs.markFileDeleted(job.id, now);
        filesDeleted += 1;
      }
      if (expired.length < BATCH) return { filesDeleted };
    }
  }
}
