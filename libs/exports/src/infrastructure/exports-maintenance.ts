import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RateLimitedLog, RepeatingTask } from '@outreach/platform';
import { ExportsHousekeeping } from '../application/exports-housekeeping';

const EVERY_MS = 60_000;

/** Every worker's own timer: once a minute, delete the files of expired exports (rows stay). */
@Injectable()
export class ExportsMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new RateLimitedLog(new Logger('ExportsMaintenance'));
  private readonly loop = new RepeatingTask(
    () => this.housekeeping.run(),
    () => EVERY_MS,
    (error) => this.log.warn(`exports housekeeping failed: ${error.message}`),
  );

  constructor(private readonly housekeeping: ExportsHousekeeping) {}

  onApplicationBootstrap(): void {
    this.loop.start(EVERY_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
