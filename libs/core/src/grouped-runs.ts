/**
 * Group commit for work that is cheaper done together (decisions.md 16.31): items submitted while
 * `concurrency` groups are already running wait, and the next group takes every waiting item (up
 * to `maxGroup`) at once. An item submitted to an idle runner starts alone, at once: grouping adds
 * no wait, it only gathers what arrived while the database was busy.
 *
 * Items sharing a key (`keyOf`) never share a group: the later one waits for a later group. The
 * runner answers one settled result per item, in order; a runner that rejects rejects every item
 * of its group.
 */
export class GroupedRuns<I, O> {
  private readonly waiting: Array<{ item: I; resolve: (value: O) => void; reject: (reason: unknown) => void }> = [];
  private running = 0;

  constructor(
    private readonly runner: (items: I[]) => Promise<Array<PromiseSettledResult<O>>>,
    private readonly options: { maxGroup: number; concurrency: number; keyOf: (item: I) => string },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  /** Items waiting or running (for tests and shutdown). */
  get size(): number {
    return this.waiting.length + this.running;
  }

  private pump(): void {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const group = this.take();
      this.running++;
      this.runner(group.map((entry) => entry.item))
        .then(
          (results) => group.forEach((entry, i) => (results[i].status === 'fulfilled' ? entry.resolve(results[i].value) : entry.reject(results[i].reason))),
          (error: unknown) => group.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }

  /** The oldest waiting items with distinct keys, up to maxGroup; the rest keep their places. */
  private take(): typeof this.waiting {
    const group: typeof this.waiting = [];
    const keys = new Set<string>();
    for (let i = 0; i < this.waiting.length && group.length < this.options.maxGroup; ) {
      const key = this.options.keyOf(this.waiting[i].item);
      if (keys.has(key)) {
        i++;
        continue;
      }
      keys.add(key);
      group.push(...this.waiting.splice(i, 1));
    }
    return group;
  }
}
