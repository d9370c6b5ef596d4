import type { AccessChange } from './access-changes';
import type { ResolvedApiKey } from './principal';

/** Keys held at most; past it the oldest entry goes (a Map iterates in insertion order). */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  value: ResolvedApiKey;
  expiresAt: number;
}

/**
 * The API process's memory of resolved API keys (decisions.md 41.1): a found key is reused for
 * `ttlMs`, then read again. The guard still judges every request from the entry (revoked,
 * expiry against the clock, workspace and member status, scopes): the cache only saves the query.
 *
 * - Unknown keys are not remembered: a key issued a moment ago works at once.
 * - `invalidate` drops the matching entries, cancels loads in flight and bumps a generation: a
 *   load that started before a change and ends after it is returned to its own caller (it began
 *   before the change, as an uncached request would have) but not stored.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<ResolvedApiKey | null>>();
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  resolve(hash: Buffer, load: () => Promise<ResolvedApiKey | null>): Promise<ResolvedApiKey | null> {
    if (this.ttlMs === 0) return load();
    const id = hash.toString('base64');
    const hit = this.entries.get(id);
    if (hit) {
      if (hit.expiresAt > this.now()) return Promise.resolve(hit.value);
      this.entries.delete(id);
    }
    const pending = this.loading.get(id);
    if (pending) return pending;
    const generation = this.generation;
    const loaded = load().then(
      (value) => {
        if (this.loading.get(id) === loaded) this.loading.delete(id);
        if (value && generation === this.generation) this.store(id, value);
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(id) === loaded) this.loading.delete(id);
        throw error;
      },
    );
    this.loading.set(id, loaded);
    return loaded;
  }

  invalidate(change: AccessChange): void {
    this.generation += 1;
    this.loading.clear();
    if ('all' in change) {
      this.entries.clear();
      return;
    }
    for (const [id, { value }] of this.entries) {
      const hit =
        ('keyId' in change && value.keyId === change.keyId) ||
        ('memberId' in change && value.member.id === change.memberId) ||
        ('workspaceId' in change && value.workspace.id === change.workspaceId);
      if (hit) this.entries.delete(id);
    }
  }

  private store(id: string, value: ResolvedApiKey): void {
    if (this.entries.size >= API_KEY_CACHE_MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(id, { value: deepFreeze(value), expiresAt: this.now() + this.ttlMs });
  }
}

/**
 * A kept entry is shared by every request that presents its key (the guard's principal refers to
 * its workspace, member and scopes), so it is frozen: code that would change one request's view of
 * them throws instead of changing what the next requests see. Buffers (the key's hash) cannot be
 * frozen and are left as they are.
 */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
