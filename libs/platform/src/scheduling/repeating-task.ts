/**
 * A piece of work run again and again in this process: the next run starts `everyMs` after the
 * previous one ended (never two at once), a failure is handed to `onError` and the loop goes on,
 * and stop() waits for a run in progress. Timers are unref'd: a repeating task alone does not
 * keep the process alive.
 */
export class RepeatingTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  /** Until start(), and after stop(): wake() does nothing. */
  private stopped = true;
  private again = false;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly everyMs: () => number,
    private readonly onError: (error: Error) => void,
  ) {}

  start(firstDelayMs: number): void {
    this.stopped = false;
    this.schedule(firstDelayMs);
  }

  /**
   * Run now instead of at the next timer: at once when idle, or right after the run in progress
   * (wake-ups during a run coalesce into one more run).
   */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
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
      this.timer = null;
      this.running = this.work()
        .catch((error: Error) => this.onError(error))
        .finally(() => {
          this.running = null;
          const again = this.again;
          this.again = false;
          this.schedule(again ? 0 : this.everyMs());
        });
    }, delayMs);
    this.timer.unref();
  }
}
