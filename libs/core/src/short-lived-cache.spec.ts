import { ShortLivedCache } from './short-lived-cache';

/* The per-process cache behind the engine's and the voice router's look-ups (decisions.md 16.40). */

describe('ShortLivedCache', () => {
  afterEach(() => jest.useRealTimers());

  it('loads a key once while it is fresh; concurrent misses share one load; after the TTL it loads again', async () => {
    jest.useFakeTimers({ now: 1_000 });
    const cache = new ShortLivedCache<number>(1000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    jest.setSystemTime(1_999);
    expect(await cache.get('a', load)).toBe(1);
    jest.setSystemTime(2_000);
    expect(await cache.get('a', load)).toBe(2);
  });

  it('forget drops the keys picked (every key without a picker): their next get loads again', async () => {
    const cache = new ShortLivedCache<string>(60_000);
    let n = 0;
    const load = (key: string) => async () => `${key}${++n}`;
    await cache.get('w1 +1', load('w1 +1'));
    await cache.get('w2 +1', load('w2 +1'));
    cache.forget((key) => key.startsWith('w1 '));
    expect(await cache.get('w1 +1', load('w1 +1'))).toBe('w1 +13');
    expect(await cache.get('w2 +1', load('w2 +1'))).toBe('w2 +12');
    cache.forget();
    expect(await cache.get('w2 +1', load('w2 +1'))).toBe('w2 +14');
  });

  it('a failed load is not kept, and its failure does not drop a newer entry of the key', async () => {
    const cache = new ShortLivedCache<string>(60_000);
    let fail!: (error: Error) => void;
    const failing = cache.get('k', () => new Promise<string>((_, reject) => (fail = reject)));
    cache.forget(); // a change announced while the first load is under way
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
    fail(new Error('connection reset'));
    await expect(failing).rejects.toThrow('connection reset');
    expect(await cache.get('k', async () => 'not asked')).toBe('fresh');
    await expect(cache.get('x', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('x', async () => 'up')).toBe('up');
  });
});
