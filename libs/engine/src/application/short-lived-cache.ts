/**
 * Remembers values for a short while (per process), so a campaign's thousands of attempts do not
 * each re-read the same agent and caller ids. Staleness is bounded by `ttlMs`.
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
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    value.catch(() => this.entries.delete(key));
    return value;
  }
}
