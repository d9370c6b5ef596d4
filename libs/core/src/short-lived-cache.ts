/**
 * Remembers values for a short while (per process), so a campaign's thousands of attempts do not
 * each re-read the same agent and caller ids. Staleness is bounded by `ttlMs`; `forget` drops what
 * this process knows has changed. Concurrent misses of one key share one load.
 */
export class ShortLivedCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = load();
    const entry = { value, expiresAt: now + this.ttlMs };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Drops the keys `matches` picks (every key without it): their next `get` loads again. */
  forget(matches?: (key: string) => boolean): void {
    if (!matches) return this.entries.clear();
    for (const key of [...this.entries.keys()]) if (matches(key)) this.entries.delete(key);
  }
}
