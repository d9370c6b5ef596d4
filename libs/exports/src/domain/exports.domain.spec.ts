import { AppError } from '@outreach/core';
import { csvCell, csvLine } from './csv-cell';
import { reportColumns } from './export-columns';
import { assertFitsFormat, XLSX_MAX_DATA_ROWS } from './export-format';
import { canApply, isExpired, ProgressThrottle, progressOf } from './export-job';
import { resolveExportPeriod } from './export-period';
import { columnLetters, rowXml, xmlText } from './xlsx-parts';
import { LEAD_SEGMENTS, matchesLead, readFlag, segmentFilter } from './lead-filter';
import type { ExportLead } from './export-lead';

const codeOf = (work: () => unknown): string | null => {
  try {
    work();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
};

const NOW = new Date('2026-11-25T14:30:00Z');

describe('resolveExportPeriod (UTC)', () => {
  it.each([
    ['today', '2026-11-25T00:00:00.000Z', null],
    ['last_7_days', '2026-11-18T14:30:00.000Z', null],
    ['this_month', '2026-11-01T00:00:00.000Z', null],
    ['last_month', '2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'],
    ['all_time', null, null],
  ])('%s → [%s, %s)', (period, from, to) => {
    const r = resolveExportPeriod({ period }, NOW);
    expect({ period: r.period, from: r.from?.toISOString() ?? null, to: r.to?.toISOString() ?? null }).toEqual({ period, from, to });
  });

  it('last_month in January is December of the year before', () => {
    const r = resolveExportPeriod({ period: 'last_month' }, new Date('2026-01-10T00:00:00Z'));
    expect([r.from?.toISOString(), r.to?.toISOString()]).toEqual(['2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
  });

  it('absent period is all_time; from/to are ignored by presets', () => {
    expect(resolveExportPeriod({}, NOW)).toEqual({ period: 'all_time', from: null, to: null });
    expect(resolveExportPeriod({ period: 'all_time', from: new Date(0), to: new Date(1) }, NOW)).toEqual({ period: 'all_time', from: null, to: null });
  });

  it('custom keeps [from, to)', () => {
    const from = new Date('2026-11-01T00:00:00Z');
    const to = new Date('2026-11-02T00:00:00Z');
    expect(resolveExportPeriod({ period: 'custom', from, to }, NOW)).toEqual({ period: 'custom', from, to });
  });

  it('unknown period → invalid_export_period (case matters)', () => {
    expect(codeOf(() => resolveExportPeriod({ period: 'yesterday' }, NOW))).toBe('invalid_export_period');
    expect(codeOf(() => resolveExportPeriod({ period: 'TODAY' }, NOW))).toBe('invalid_export_period');
  });

  it('custom without from or to, or with to <= from → invalid_export_range', () => {
    const t = new Date('2026-11-01T00:00:00Z');
    expect(codeOf(() => resolveExportPeriod({ period: 'custom', from: t }, NOW))).toBe('invalid_export_range');
    expect(codeOf(() => resolveExportPeriod({ period: 'custom', to: t }, NOW))).toBe('invalid_export_range');
    expect(codeOf(() => resolveExportPeriod({ period: 'custom', from: t, to: t }, NOW))).toBe('invalid_export_range');
    expect(codeOf(() => resolveExportPeriod({ period: 'custom', from: t, to: new Date(t.getTime() - 1) }, NOW))).toBe('invalid_export_range');
  });
});

describe('XLSX row limit (checked from the count before work starts)', () => {
  it('the sheet holds 1,048,575 data rows', () => {
    expect(XLSX_MAX_DATA_ROWS).toBe(1_048_575);
    expect(codeOf(() => assertFitsFormat('XLSX', 1_048_575))).toBeNull();
    expect(codeOf(() => assertFitsFormat('XLSX', 1_048_576))).toBe('excel_row_limit_exceeded');
  });

  it('CSV has no limit; a narrowed limit applies to XLSX only', () => {
    expect(codeOf(() => assertFitsFormat('CSV', 5_000_000))).toBeNull();
    expect(codeOf(() => assertFitsFormat('XLSX', 3, 3))).toBeNull();
    expect(codeOf(() => assertFitsFormat('XLSX', 4, 3))).toBe('excel_row_limit_exceeded');
  });
});

describe('CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+14155550100', "'+14155550100"],
    ['-1+1', "'-1+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['line\nbreak', '"line\nbreak"'],
    ['', ''],
  ])('%j → %j', (input, out) => expect(csvCell(input)).toBe(out));

  it('numbers and nulls are data', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
  });
});

const lead = (o: Partial<ExportLead>): ExportLead => ({
  contactId: 'c',
  seq: 1,
  phone: '+1',
  name: null,
  fields: {},
  status: 'COMPLETED',
  attempts: 1,
  lastOutcome: 'completed',
  lastAttemptAt: null,
  connectedPhone: null,
  createdAt: NOW,
  finalCall: null,
  ...o,
});
const call = (extraction: Record<string, unknown> | null, evaluation: Record<string, unknown> | null): ExportLead['finalCall'] => ({
  callId: 'k',
  outcome: 'completed',
  startedAt: NOW,
  durationMs: 61_500,
  extraction,
  evaluation,
});

describe('lead filters and segments', () => {
  it('segments by contact status and outcome', () => {
    const segmentsOf = (l: ExportLead) => LEAD_SEGMENTS.filter((s) => matchesLead(segmentFilter(s), l));
    expect(segmentsOf(lead({ status: 'PENDING', lastOutcome: null, attempts: 0 }))).toEqual(['all', 'pending']);
    expect(segmentsOf(lead({ status: 'RETRY_SCHEDULED', lastOutcome: 'busy' }))).toEqual(['all', 'pending', 'not_reached']);
    expect(segmentsOf(lead({ status: 'FAILED', lastOutcome: 'no_answer' }))).toEqual(['all', 'failed', 'not_reached']);
    expect(segmentsOf(lead({ status: 'DO_NOT_CALL', lastOutcome: null }))).toEqual(['all', 'do_not_call']);
    expect(segmentsOf(lead({ finalCall: call({ interested: 'yes' }, null) }))).toEqual(['all', 'completed', 'interested']);
    expect(segmentsOf(lead({ finalCall: call(null, { interested: false, do_not_call: 'true' }) }))).toEqual(['all', 'completed', 'not_interested', 'opted_out']);
  });

  it('an overridden evaluation wins over the extraction for a signal', () => {
    expect(matchesLead({ signal: 'interested' }, lead({ finalCall: call({ interested: true }, { interested: 'no' }) }))).toBe(false);
  });

  it('readFlag reads yes/no values and nothing else', () => {
    expect([true, 'TRUE', 'yes', '1', 1].map(readFlag)).toEqual([true, true, true, true, true]);
    expect([false, 'false', 'No', '0', 0].map(readFlag)).toEqual([false, false, false, false, false]);
    expect(['maybe', null, undefined, 2, {}].map(readFlag)).toEqual([null, null, null, null, null]);
  });

  it('custom filters: members AND, values OR; values compared as text; no call → no analysis match', () => {
    const l = lead({ finalCall: call({ budget: 1200, tags: ['a', 'b'] }, { qualified: 'yes' }) });
    expect(matchesLead({ extraction: [{ key: 'budget', values: ['1200', '5'] }] }, l)).toBe(true);
    expect(matchesLead({ extraction: [{ key: 'tags', values: ['a; b'] }] }, l)).toBe(true);
    expect(matchesLead({ extraction: [{ key: 'budget', values: ['1200'] }], evaluation: [{ key: 'qualified', values: ['no'] }] }, l)).toBe(false);
    expect(matchesLead({ statuses: ['FAILED'], extraction: [{ key: 'budget', values: ['1200'] }] }, l)).toBe(false);
    expect(matchesLead({ evaluation: [{ key: 'qualified', values: ['yes'] }] }, lead({}))).toBe(false);
  });
});

describe('report columns', () => {
  const shape = { fieldKeys: ['plan'], extractionKeys: ['budget'], metricKeys: ['qualified'] };

  it('base, then one per field, extraction key and metric', () => {
    const cols = reportColumns(shape);
    expect(cols.map((c) => c.header).slice(-3)).toEqual(['field.plan', 'extraction.budget', 'metric.qualified']);
    const l = lead({ fields: { plan: 'gold' }, finalCall: call({ budget: 10 }, { qualified: 'yes' }) });
    expect(Object.fromEntries(cols.map((c) => [c.header, c.value(l)]))).toMatchObject({
      phone: '+1',
      call_duration_seconds: 62,
      'field.plan': 'gold',
      'extraction.budget': '10',
      'metric.qualified': 'yes',
    });
  });

  it('a selection keeps its order; an unknown column → invalid_body', () => {
    expect(reportColumns(shape, ['metric.qualified', 'phone']).map((c) => c.header)).toEqual(['metric.qualified', 'phone']);
    expect(codeOf(() => reportColumns(shape, ['phone', 'nope']))).toBe('invalid_body');
  });
});

describe('export job', () => {
  it('transition table: a running job may start again (restart after a crash), a finished one not', () => {
    expect(canApply('queued', 'start')).toBe(true);
    expect(canApply('running', 'start')).toBe(true);
    expect(canApply('ready', 'start')).toBe(false);
    expect(canApply('failed', 'start')).toBe(false);
    expect(canApply('queued', 'finish')).toBe(false);
  });

  it('expired: ready and past expiresAt, or its file deleted', () => {
    const at = new Date('2026-11-25T00:00:00Z');
    expect(isExpired({ status: 'ready', expiresAt: at, fileDeletedAt: null }, new Date(at.getTime() - 1))).toBe(false);
    expect(isExpired({ status: 'ready', expiresAt: at, fileDeletedAt: null }, at)).toBe(true);
    expect(isExpired({ status: 'ready', expiresAt: new Date(at.getTime() + 1e9), fileDeletedAt: at }, at)).toBe(true);
    expect(isExpired({ status: 'failed', expiresAt: null, fileDeletedAt: null }, at)).toBe(false);
  });

  it('progress stays below 100 until ready; the throttle lets one write per second through', () => {
    expect([progressOf(0, 10), progressOf(5, 10), progressOf(10, 10), progressOf(3, 0)]).toEqual([0, 50, 99, 0]);
    const t = new ProgressThrottle(1000);
    expect([t.due(0), t.due(500), t.due(999), t.due(1000), t.due(1500), t.due(2001)]).toEqual([true, false, false, true, false, true]);
  });
});

describe('XLSX parts', () => {
  it('column letters', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('rows: text is an inline string (a formula stays text), numbers are values, empty cells are left out', () => {
    expect(rowXml(2, ['=SUM(A1)', 5, null, '', 'a<b&"c"'], ['A', 'B', 'C', 'D', 'E'])).toBe(
      '<row r="2"><c r="A2" t="inlineStr"><is><t xml:space="preserve">=SUM(A1)</t></is></c><c r="B2"><v>5</v></c>' +
        '<c r="E2" t="inlineStr"><is><t xml:space="preserve">a&lt;b&amp;&quot;c&quot;</t></is></c></row>',
    );
  });

  it('characters XML cannot hold are dropped, the rest kept', () => {
    expect(xmlText('a\u0000b\u0007c\td\ne\u{1F600}\uD800f')).toBe('abc\td\ne\u{1F600}f');
  });
});
