import { API_KEY_CACHE_MAX_ENTRIES, ApiKeyCache } from './api-key-cache';
import type { ResolvedApiKey } from './principal';

function key(n: number, overrides: { workspaceId?: string; memberId?: string } = {}): ResolvedApiKey {
  return {
    keyId: `key-${n}`,
    keyHash: Buffer.from(`hash-${n}`),
    revoked: false,
    expiresAt: null,
    scopes: [],
    workspace: { id: overrides.workspaceId ?? `ws-${n}`, name: 'w', status: 'ACTIVE', features: [], concurrency: 1, rateLimitPerMinute: null },
    member: { id: overrides.memberId ?? `m-${n}`, role: 'owner', status: 'ACTIVE' },
  };
}

/** A loader over a mutable "table" that counts its queries. */
function table(...rows: ResolvedApiKey[]) {
  const byHash = new Map(rows.map((r) => [r.keyHash.toString(), r]));
  const loads: string[] = [];
  return {
    byHash,
    loads,
    load: (hash: Buffer) => async () => {
      loads.push(hash.toString());
      const row = byHash.get(hash.toString());
      return row ? structuredClone(row) : null;
    },
  };
}

describe('ApiKeyCache (decisions.md 41.1)', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('reuses a found key for the TTL, then reads it again', async () => {
    const db = table(key(1));
    const cache = new ApiKeyCache(5000, clock);
    const h = Buffer.from('hash-1');
    expect((await cache.resolve(h, db.load(h)))?.keyId).toBe('key-1');
    now += 4999;
    expect((await cache.resolve(h, db.load(h)))?.keyId).toBe('key-1');
    expect(db.loads).toHaveLength(1);
    now += 1;
    await cache.resolve(h, db.load(h));
    expect(db.loads).toHaveLength(2);
  });

  it('a kept entry is frozen: one request cannot change what the next ones see', async () => {
    const db = table(key(1));
    const cache = new ApiKeyCache(5000, clock);
    const h = Buffer.from('hash-1');
    const first = await cache.resolve(h, db.load(h));
    expect(() => {
      (first!.workspace as { features: string[] }).features.push('whatsapp');
    }).toThrow(/not extensible/);
    expect(() => {
      (first!.member as { role: string }).role = 'viewer';
    }).toThrow(/read.only/);
    const again = await cache.resolve(h, db.load(h));
    expect(again).toBe(first);
    expect(again!.workspace.features).toEqual([]);
    expect(again!.member.role).toBe('owner');
    expect(db.loads).toHaveLength(1);
  });

  it('never remembers an unknown key: a key issued a moment later works at once', async () => {
    const db = table();
    const cache = new ApiKeyCache(5000, clock);
    const h = Buffer.from('hash-7');
    expect(await cache.resolve(h, db.load(h))).toBeNull();
    db.byHash.set('hash-7', key(7));
    expect((await cache.resolve(h, db.load(h)))?.keyId).toBe('key-7');
    expect(cache.size).toBe(1);
  });

  it('a TTL of 0 reads the database on every request', async () => {
    const db = table(key(1));
    const cache = new ApiKeyCache(0, clock);
    const h = Buffer.from('hash-1');
    await cache.resolve(h, db.load(h));
    await cache.resolve(h, db.load(h));
    expect(db.loads).toHaveLength(2);
    expect(cache.size).toBe(0);
  });

  it.each([
    ['the key', { keyId: 'key-1' }],
    ['its member', { memberId: 'm-shared' }],
    ['its workspace', { workspaceId: 'ws-shared' }],
    ['everything', { all: true as const }],
  ])('a change of %s drops the entry: the next request reads the change', async (_, change) => {
    const db = table(key(1, { workspaceId: 'ws-shared', memberId: 'm-shared' }), key(2));
    const cache = new ApiKeyCache(60_000, clock);
    const [h1, h2] = [Buffer.from('hash-1'), Buffer.from('hash-2')];
    await cache.resolve(h1, db.load(h1));
    await cache.resolve(h2, db.load(h2));
    db.byHash.get('hash-1')!.revoked = true;
    cache.invalidate(change);
    expect((await cache.resolve(h1, db.load(h1)))?.revoked).toBe(true);
    // Other keys stay cached unless everything was dropped.
    await cache.resolve(h2, db.load(h2));
    expect(db.loads.filter((l) => l === 'hash-2')).toHaveLength('all' in change ? 2 : 1);
  });

  it('a load that began before a change is not stored (it may have read the old row)', async () => {
    const db = table(key(1));
    const cache = new ApiKeyCache(60_000, clock);
    const h = Buffer.from('hash-1');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stale = cache.resolve(h, async () => {
      const row = await db.load(h)(); // read before the change committed
      await gate;
      return row;
    });
    db.byHash.get('hash-1')!.revoked = true;
    cache.invalidate({ keyId: 'key-1' });
    release();
    expect((await stale)?.revoked).toBe(false); // its own caller began before the change
    expect((await cache.resolve(h, db.load(h)))?.revoked).toBe(true);
  });

  it('concurrent misses of one key share one query; a change cancels the sharing', async () => {
    const db = table(key(1));
    const cache = new ApiKeyCache(60_000, clock);
    const h = Buffer.from('hash-1');
    const [a, b] = await Promise.all([cache.resolve(h, db.load(h)), cache.resolve(h, db.load(h))]);
    expect(a?.keyId).toBe('key-1');
    expect(b?.keyId).toBe('key-1');
    expect(db.loads).toHaveLength(1);

    cache.invalidate({ all: true });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = cache.resolve(h, async () => {
      await gate;
      return db.load(h)();
    });
    cache.invalidate({ keyId: 'key-1' });
    const second = cache.resolve(h, db.load(h)); // after the change: its own query
    release();
    await Promise.all([first, second]);
    expect(db.loads).toHaveLength(3);
  });

  it('a failed load is not remembered', async () => {
    const cache = new ApiKeyCache(60_000, clock);
    const h = Buffer.from('hash-1');
    await expect(cache.resolve(h, () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    const db = table(key(1));
    expect((await cache.resolve(h, db.load(h)))?.keyId).toBe('key-1');
  });

  it(`holds at most ${API_KEY_CACHE_MAX_ENTRIES} keys, dropping the oldest`, async () => {
    const cache = new ApiKeyCache(60_000, clock);
    for (let n = 0; n <= API_KEY_CACHE_MAX_ENTRIES; n += 1) {
      const h = Buffer.from(`hash-${n}`);
      await cache.resolve(h, async () => key(n));
    }
    expect(cache.size).toBe(API_KEY_CACHE_MAX_ENTRIES);
    let reloaded = false;
    await cache.resolve(Buffer.from('hash-0'), async () => {
      reloaded = true;
      return key(0);
    });
    expect(reloaded).toBe(true);
  });
});
