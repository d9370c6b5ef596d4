/**
 * A piece of work run again and again in this process: the next run starts `everyMs` after the
 * previous one ended (never two at once), a failure is handed to `onError` and the loop goes on,
 * and stop() waits for a run in progress. Timers are unref'd: a repeating task alone does not
 * keep the process alive.
 */
export class RepeatingTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly everyMs: () => number,
    private readonly onError: (error: Error) => void,
  ) {}

  start(firstDelayMs: number): void {
    this.stopped = false;
    this.schedule(firstDelayMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.work()
        .catch((error: Error) => this.onError(error))
        .finally(() => {
          this.running = null;
          this.schedule(this.everyMs());
        });
    }, delayMs);
    this.timer.unref();
  }
}
