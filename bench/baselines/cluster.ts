/*
 * Runs N copies of an entry script under Node cluster, sharing one listening port (the primary
 * hands connections round-robin): how `npm run bench:scale` runs 1 and then 2 API processes.
 *   node dist/bench/baselines/cluster.js <N> <entry.js>
 * Workers inherit the environment (PORT) and BENCH_NODE_ARGS as node flags. SIGTERM stops them all.
 */
import cluster from 'node:cluster';
import { resolve } from 'node:path';

if (cluster.isPrimary) {
  const n = Number(process.argv[2]);
  if (!Number.isInteger(n) || n < 1 || !process.argv[3]) throw new Error('usage: cluster.js <N> <entry.js>');
  cluster.schedulingPolicy = cluster.SCHED_RR;
  // BENCH_NODE_ARGS: node flags for the workers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the API under load.
  const execArgv = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(/\s+/) : process.execArgv;
  cluster.setupPrimary({ exec: resolve(process.argv[3]), args: [], execArgv });
  for (let i = 0; i < n; i++) cluster.fork();
  let stopping = false;
  cluster.on('exit', (worker, code) => {
    if (!stopping) {
      process.stderr.write(`cluster: worker ${worker.process.pid} exited (${code})\n`);
      process.exit(1);
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
  process.once('SIGTERM', () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  });
}
