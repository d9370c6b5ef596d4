import { GroupedRuns } from './grouped-runs';

const tick = () => new Promise((r) => setImmediate(r));

/** A runner whose groups finish when the test says so; it doubles each item. */
function gatedRunner() {
  const groups: Array<{ items: number[]; finish: () => void; fail: (error: Error) => void }> = [];
  const runner = (items: number[]) =>
    new Promise<Array<PromiseSettledResult<number>>>((resolve, reject) => {
      groups.push({
        items,
        finish: () => resolve(items.map((item) => (item < 0 ? { status: 'rejected', reason: new Error(`bad ${item}`) } : { status: 'fulfilled', value: item * 2 }))),
        fail: reject,
      });
    });
  return { groups, runner };
}

describe('GroupedRuns', () => {
  it('an item submitted to an idle runner starts alone, at once; what arrives meanwhile goes in the next group, together', async () => {
    const { groups, runner } = gatedRunner();
    const runs = new GroupedRuns<number, number>(runner, { maxGroup: 10, concurrency: 1, keyOf: String });
    const first = runs.submit(1);
    await tick();
    expect(groups.map((g) => g.items)).toEqual([[1]]);
    const later = [runs.submit(2), runs.submit(3), runs.submit(4)];
    await tick();
    expect(groups).toHaveLength(1); // waits for the group in flight
    groups[0].finish();
    expect(await first).toBe(2);
    await tick();
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 3, 4]]);
    groups[1].finish();
    expect(await Promise.all(later)).toEqual([4, 6, 8]);
    expect(runs.size).toBe(0);
  });

  it('`concurrency` groups run at once; a group takes at most maxGroup items, the oldest first', async () => {
    const { groups, runner } = gatedRunner();
    const runs = new GroupedRuns<number, number>(runner, { maxGroup: 2, concurrency: 2, keyOf: String });
    const all = [1, 2, 3, 4, 5, 6].map((n) => runs.submit(n));
    await tick();
    expect(groups.map((g) => g.items)).toEqual([[1], [2]]);
    groups[0].finish();
    await tick();
    expect(groups.map((g) => g.items)).toEqual([[1], [2], [3, 4]]);
    groups[1].finish();
    await tick();
    expect(groups.map((g) => g.items)).toEqual([[1], [2], [3, 4], [5, 6]]);
    groups[2].finish();
    groups[3].finish();
    expect(await Promise.all(all)).toEqual([2, 4, 6, 8, 10, 12]);
  });

  it('items with the same key never share a group: the later one waits for a later group', async () => {
    const { groups, runner } = gatedRunner();
    const runs = new GroupedRuns<number, number>(runner, { maxGroup: 10, concurrency: 1, keyOf: (n) => String(n % 10) });
    const all = [runs.submit(1), runs.submit(2), runs.submit(11), runs.submit(3), runs.submit(21)];
    await tick();
    groups[0].finish();
    await tick();
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 11, 3]]);
    groups[1].finish();
    await tick();
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 11, 3], [21]]);
    groups[2].finish();
    expect(await Promise.all(all)).toEqual([2, 4, 22, 6, 42]);
  });

  it("each item gets its own result; a runner that rejects rejects every item of its group, and later groups still run", async () => {
    const { groups, runner } = gatedRunner();
    const runs = new GroupedRuns<number, number>(runner, { maxGroup: 10, concurrency: 1, keyOf: String });
    const first = runs.submit(7);
    await tick();
    const mixed = [runs.submit(-1), runs.submit(5)];
    const failing = runs.submit(9);
    groups[0].fail(new Error('database unreachable'));
    await expect(first).rejects.toThrow('database unreachable');
    await tick();
    expect(groups[1].items).toEqual([-1, 5, 9]);
    groups[1].finish();
    await expect(mixed[0]).rejects.toThrow('bad -1');
    await expect(mixed[1]).resolves.toBe(10);
    await expect(failing).resolves.toBe(18);
  });
});
