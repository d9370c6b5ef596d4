// `npm run bench` builds its table from the BENCH_JSON lines the benchmarks print: this keeps the
// parser and the table honest on canned output (no benchmark runs here).
import { benchJsonLine, measuredRow } from '../../bench/bench-load';
import { buildTable, EXPECTED, parseBenchJson, renderTable, verdict } from '../../bench/bench-table';

const RESULTS_OUTPUT = `results bench: 50 connections, 10 s per phase
POST /v1/campaigns/{id}/leads (service)        410.0
BENCH_JSON {"bench":"bench:results","path":"POST /v1/campaigns/{id}/leads","unit":"req/s","service":1200,"raw":1800,"rawName":"node:http + pg, one-statement push","ratio":0.6667,"goal":0.6,"p99ms":140,"p99GoalMs":100,"sameSql":600,"nestMinimum":900}
BENCH_JSON {"bench":"bench:results","path":"GET /v1/results/{id}","unit":"req/s","service":6000,"raw":11000,"rawName":"node:http + pg, primary-key read","ratio":0.5454,"goal":0.5,"p99ms":12,"sameSql":7000}
`;
const ENGINE_OUTPUT = `engine benchmark
  prefix: BENCH_JSON {"bench":"bench:engine","path":"dispatch, zero-latency sandbox","unit":"contacts/s","service":2500,"raw":10000,"rawName":"BullMQ no-op","goal":0.2,"p99ms":null}
BENCH_JSON {not json
`;

describe('npm run bench: the table', () => {
  it('parses BENCH_JSON lines anywhere in a line, computes a missing ratio, and reports malformed ones', () => {
    const { rows, malformed } = parseBenchJson(RESULTS_OUTPUT + ENGINE_OUTPUT);
    expect(rows.map((r) => [r.bench, r.path, r.ratio])).toEqual([
      ['bench:results', 'POST /v1/campaigns/{id}/leads', 0.6667],
      ['bench:results', 'GET /v1/results/{id}', 0.5454],
      ['bench:engine', 'dispatch, zero-latency sandbox', 0.25],
    ]);
    expect(rows[1].p99GoalMs).toBeNull();
    expect(rows[0].sameSql).toBe(600);
    expect(rows[0].nestMinimum).toBe(900);
    expect(rows[1].nestMinimum).toBeNull();
    expect(malformed).toEqual(['{not json']);
  });

  it('writes the line every benchmark prints: figures rounded to 3 decimals, the ratio computed, extras kept', () => {
    const row = measuredRow({ bench: 'bench:import', path: 'import', unit: 'rows/s', service: 11868.6666, raw: 864381.25, rawName: 'COPY', goal: 0.25, p99ms: null });
    const line = benchJsonLine(row, { rows: 100000, peakRssMb: 297 });
    expect(line.startsWith('BENCH_JSON {')).toBe(true);
    const { rows, malformed } = parseBenchJson(`import bench\n${line}\n`);
    expect(malformed).toEqual([]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ bench: 'bench:import', unit: 'rows/s', service: 11868.667, raw: 864381.25, ratio: 0.014, goal: 0.25, rawName: 'COPY' });
    expect(JSON.parse(line.slice('BENCH_JSON '.length))).toMatchObject({ rows: 100000, peakRssMb: 297 });
  });

  it('judges a row by its ratio goal and, where set, its p99 goal', () => {
    expect(verdict({ ratio: 0.67, goal: 0.6, p99ms: 140, p99GoalMs: 100 })).toBe('FAIL');
    expect(verdict({ ratio: 0.67, goal: 0.6, p99ms: 90, p99GoalMs: 100 })).toBe('pass');
    expect(verdict({ ratio: 0.55, goal: 0.6, p99ms: 10, p99GoalMs: null })).toBe('FAIL');
    expect(verdict({ ratio: 0.55, goal: null, p99ms: null, p99GoalMs: null })).toBe('—');
    expect(verdict({ ratio: null, goal: 0.6, p99ms: null })).toBe('no data');
  });

  it('shows every expected benchmark: its rows, or one "no data" row saying why', () => {
    const { rows } = parseBenchJson(RESULTS_OUTPUT + ENGINE_OUTPUT + 'BENCH_JSON {"bench":"bench:other","path":"x","unit":"rows/s","service":5,"raw":10,"rawName":"y","goal":null,"p99ms":null}\n');
    const lines = buildTable(rows, EXPECTED, { 'bench:import': 'exited with 1', 'bench:journeys': 'not in package.json' });
    const byBench = (b: string) => lines.filter((l) => l.bench === b);
    expect(byBench('bench:results').map((l) => [l.ratio, l.sameSql, l.nestMinimum, l.goal, l.verdict])).toEqual([
      ['0.67', '600 (×2.00)', '900 (×1.33; ceiling 0.50)', '≥ 0.6', 'FAIL'],
      ['0.55', '7,000 (×0.86)', '—', '≥ 0.5', 'pass'],
    ]);
    expect(byBench('bench:engine')[0]).toMatchObject({ service: '2,500 contacts/s', raw: '10,000 (BullMQ no-op)', ratio: '0.25', verdict: 'pass' });
    expect(byBench('bench:import')).toEqual([expect.objectContaining({ verdict: 'no data', goal: '≥ 0.25', path: expect.stringContaining('exited with 1') })]);
    expect(byBench('bench:journeys')[0].path).toContain('not in package.json');
    // Every expected bench appears, in order, and an unexpected bench's rows come last.
    expect([...new Set(lines.map((l) => l.bench))]).toEqual([...EXPECTED.map((e) => e.bench), 'bench:other']);
    const text = renderTable(lines);
    expect(text.split('\n')[0]).toMatch(/^bench\s+path\s+service\s+raw minimum\s+ratio/);
    expect(text.split('\n')).toHaveLength(lines.length + 2);
  });
});
