// The table `npm run bench` prints: every benchmark's BENCH_JSON rows as ratios against the
// minimal raw baseline, the same-SQL baseline beside it, the goal and pass/fail. Pure functions
// (no I/O), so the unit test in test/bench/ can feed it canned output.
import type { BenchJson } from './bench-load';

/** A benchmark `npm run bench` runs, with what to show when it printed no BENCH_JSON. */
export interface ExpectedBench {
  /** The npm script, e.g. "bench:results" (also the `bench` field of its rows). */
  bench: string;
  /** What it measures, for the "no data" row. */
  what: string;
  /** The goal (service / raw) for the "no data" row, where the issue sets one. */
  goal: number | null;
}

/** Every benchmark, in the order `npm run bench` runs them (scripts missing from package.json are shown as "no data"). */
export const EXPECTED: ExpectedBench[] = [
  { bench: 'bench:results', what: 'lead push and result GET vs node:http + pg', goal: 0.5 },
  { bench: 'bench:engine', what: 'dispatch, zero-latency sandbox vs BullMQ no-op', goal: null },
  { bench: 'bench:messages', what: 'message legs vs BullMQ no-op', goal: null },
  { bench: 'bench:journeys', what: 'journeys vs BullMQ no-op', goal: null },
  { bench: 'bench:import', what: '100k-row import vs raw COPY', goal: 0.25 },
  { bench: 'bench:latency', what: 'lead → first dial, LISTEN/NOTIFY vs polling', goal: null },
  { bench: 'bench:scale', what: '2 processes / 1 process', goal: 1.6 },
  { bench: 'bench:exports', what: 'streaming export vs raw COPY TO STDOUT', goal: 0.3 },
  { bench: 'bench:cli', what: 'operator CLI start-up', goal: null },
];

/** The BENCH_JSON rows in a benchmark's stdout (malformed lines are reported, not dropped silently). */
export function parseBenchJson(stdout: string): { rows: BenchJson[]; malformed: string[] } {
  const rows: BenchJson[] = [];
  const malformed: string[] = [];
  for (const line of stdout.split('\n')) {
    const at = line.indexOf('BENCH_JSON ');
    if (at < 0) continue;
    const text = line.slice(at + 'BENCH_JSON '.length).trim();
    try {
      const row = JSON.parse(text) as Partial<BenchJson>;
      if (typeof row.bench !== 'string' || typeof row.path !== 'string') throw new Error('bench and path are required');
      const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
      const service = num(row.service);
      const raw = num(row.raw);
      rows.push({
        bench: row.bench,
        path: row.path,
        unit: typeof row.unit === 'string' ? row.unit : '',
        service,
        raw,
        rawName: typeof row.rawName === 'string' ? row.rawName : '',
        ratio: num(row.ratio) ?? (service !== null && raw ? service / raw : null),
        goal: num(row.goal),
        p99ms: num(row.p99ms),
        sameSql: num(row.sameSql),
        nestMinimum: num(row.nestMinimum),
        p99GoalMs: num(row.p99GoalMs),
      });
    } catch {
      malformed.push(text);
    }
  }
  return { rows, malformed };
}

/** pass / FAIL against the row's goal (ratio, and p99 where it has a p99 goal); "—" without a goal; "no data" without a ratio. */
export function verdict(row: Pick<BenchJson, 'ratio' | 'goal' | 'p99ms' | 'p99GoalMs'>): 'pass' | 'FAIL' | '—' | 'no data' {
  if (row.ratio === null) return 'no data';
  if (row.goal === null && (row.p99GoalMs ?? null) === null) return '—';
  const ratioOk = row.goal === null || row.ratio >= row.goal;
  const p99Ok = (row.p99GoalMs ?? null) === null || (row.p99ms !== null && row.p99ms <= row.p99GoalMs!);
  return ratioOk && p99Ok ? 'pass' : 'FAIL';
}

export interface TableLine {
  bench: string;
  path: string;
  service: string;
  raw: string;
  ratio: string;
  sameSql: string;
  nestMinimum: string;
  goal: string;
  p99: string;
  verdict: string;
}

const num = (n: number | null | undefined, unit = '') => (n === null || n === undefined ? '—' : `${n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2)}${unit}`);

/**
 * One line per BENCH_JSON row, and one "no data" line per expected benchmark that gave none (with
 * `failed` saying why: it crashed, or it is not in package.json). Rows of benchmarks not in
 * `expected` are kept, after the expected ones.
 */
export function buildTable(rows: BenchJson[], expected: ExpectedBench[], failed: Record<string, string> = {}): TableLine[] {
  const lines: TableLine[] = [];
  const line = (row: BenchJson): TableLine => ({
    bench: row.bench,
    path: row.path,
    service: `${num(row.service)} ${row.unit}`.trim(),
    raw: row.raw === null ? '—' : `${num(row.raw)} (${row.rawName})`,
    ratio: num(row.ratio),
    sameSql: row.sameSql === null || row.sameSql === undefined ? '—' : `${num(row.sameSql)} (×${num(row.service !== null && row.sameSql ? row.service / row.sameSql : null)})`,
    nestMinimum: row.nestMinimum === null || row.nestMinimum === undefined ? '—' : `${num(row.nestMinimum)} (×${num(row.service !== null && row.nestMinimum ? row.service / row.nestMinimum : null)}; ceiling ${num(row.raw ? row.nestMinimum / row.raw : null)})`,
    goal: row.goal === null ? ((row.p99GoalMs ?? null) === null ? '—' : '') : `≥ ${row.goal}`,
    p99: row.p99ms === null ? '—' : `${num(row.p99ms)} ms${(row.p99GoalMs ?? null) === null ? '' : ` (≤ ${row.p99GoalMs})`}`,
    verdict: verdict(row),
  });
  for (const e of expected) {
    const mine = rows.filter((r) => r.bench === e.bench);
    if (mine.length) lines.push(...mine.map(line));
    else
      lines.push({
        bench: e.bench,
        path: `${e.what}${failed[e.bench] ? ` (${failed[e.bench]})` : ''}`,
        service: '—',
        raw: '—',
        ratio: '—',
        sameSql: '—',
        nestMinimum: '—',
        goal: e.goal === null ? '—' : `≥ ${e.goal}`,
        p99: '—',
        verdict: 'no data',
      });
  }
  const known = new Set(expected.map((e) => e.bench));
  lines.push(...rows.filter((r) => !known.has(r.bench)).map(line));
  return lines;
}

/** The table as text, columns padded to their widest cell. */
export function renderTable(lines: TableLine[]): string {
  const header: TableLine = { bench: 'bench', path: 'path', service: 'service', raw: 'raw minimum', ratio: 'ratio', sameSql: 'same SQL (service ×)', nestMinimum: 'Nest minimum (service ×; ÷ raw)', goal: 'goal', p99: 'p99', verdict: 'verdict' };
  const keys = Object.keys(header) as Array<keyof TableLine>;
  const all = [header, ...lines];
  const width = Object.fromEntries(keys.map((k) => [k, Math.max(...all.map((l) => l[k].length))])) as Record<keyof TableLine, number>;
  const render = (l: TableLine) => keys.map((k) => l[k].padEnd(width[k])).join('  ').trimEnd();
  return [render(header), keys.map((k) => '-'.repeat(width[k])).join('  '), ...lines.map(render)].join('\n');
}
