import { RepeatingTask } from './repeating-task';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('RepeatingTask', () => {
  it('runs again after each run ends, never two at once, and goes on after a failure', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const errors: string[] = [];
    const task = new RepeatingTask(
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        runs++;
        await sleep(5);
        active--;
        if (runs === 2) throw new Error('second run fails');
      },
      () => 1,
      (error) => errors.push(error.message),
    );
    task.start(0);
    while (runs < 5) await sleep(2);
    await task.stop();
    expect(maxActive).toBe(1);
    expect(errors).toEqual(['second run fails']);
  });

  it('stop() waits for the run in progress, and nothing runs after it', async () => {
    let finished = 0;
    let started = 0;
    const task = new RepeatingTask(
      async () => {
        started++;
        await sleep(30);
        finished++;
      },
      () => 1,
      () => undefined,
    );
    task.start(0);
    while (started === 0) await sleep(1);
    await task.stop();
    expect(finished).toBe(1);
    await sleep(20);
    expect(started).toBe(1);
  });
});

describe('RepeatingTask.wake', () => {
  it('runs at once instead of waiting for the timer; wake-ups during a run coalesce into one more run; nothing before start', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const task = new RepeatingTask(
      () => {
        runs++;
        return runs === 2 ? new Promise<void>((r) => (release = r)) : Promise.resolve();
      },
      () => 60_000,
      () => undefined,
    );
    task.wake(); // not started: ignored
    await sleep(10);
    expect(runs).toBe(0);

    task.start(60_000);
    task.wake();
    await sleep(10);
    expect(runs).toBe(1); // the first run did not wait a minute

    task.wake();
    await sleep(10);
    expect(runs).toBe(2); // held open
    task.wake();
    task.wake();
    task.wake();
    release();
    await sleep(20);
    expect(runs).toBe(3); // three wake-ups during the run → one more run, then the timer
    await task.stop();
  });
});
