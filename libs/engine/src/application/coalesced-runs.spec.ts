import { CoalescedRuns } from './coalesced-runs';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('CoalescedRuns', () => {
  it('a burst during a run costs one follow-up run that starts after the burst', async () => {
    const runs = new CoalescedRuns<number>();
    const gates = [deferred(), deferred()];
    const started: number[] = [];
    let n = 0;
    const work = () => {
      const index = n++;
      started.push(index);
      return gates[index].promise.then(() => index);
    };
    const first = runs.run('c', work);
    await tick();
    expect(started).toEqual([0]);
    const burst = [runs.run('c', work), runs.run('c', work), runs.run('c', work)];
    await tick();
    expect(started).toEqual([0]); // the follow-up waits for the current run
    gates[0].resolve();
    expect(await first).toBe(0);
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1].resolve();
    expect(await Promise.all(burst)).toEqual([1, 1, 1]);
    await tick();
    expect(runs.size).toBe(0);
  });

  it('requests before a run starts share it; keys are independent; a failure does not block the next run', async () => {
    const runs = new CoalescedRuns<string>();
    let calls = 0;
    const a1 = runs.run('a', async () => `a${++calls}`);
    const a2 = runs.run('a', async () => 'never');
    const b = runs.run('b', async () => 'b');
    expect(await a1).toBe('a1');
    expect(await a2).toBe('a1');
    expect(await b).toBe('b');
    await expect(runs.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await runs.run('a', async () => 'after')).toBe('after');
  });
});
