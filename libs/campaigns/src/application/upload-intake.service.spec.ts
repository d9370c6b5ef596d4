import { AppConfig } from '@outreach/core';
import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { ArraySpreadsheetReader, InMemoryUploadStore } from '../testing';
import { UploadIntake } from './upload-intake.service';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const TTL_HOURS = 24;
const FILE = { buffer: Buffer.alloc(0), fileName: 'leads.csv', mimeType: 'text/csv' };

function setup(table: string[][]) {
  const clock = new FixedClock(NOW);
  const uploads = new InMemoryUploadStore();
  const uow = new RollbackUnitOfWork([uploads]);
  const config = { uploadTtlHours: TTL_HOURS } as AppConfig;
  const intake = new UploadIntake(new ArraySpreadsheetReader(table), uploads, uow, clock, config);
  return { clock, uploads, uow, intake };
}

describe('UploadIntake (use case, ports faked)', () => {
  it('keeps the rows server-side and answers columns, row count, a 5-row preview and the expiry', async () => {
    const table = [[' phone ', 'name', ''], ...Array.from({ length: 7 }, (_, i) => [`+1415555010${i}`, `N${i}`])];
    const s = setup(table);
    const result = await s.intake.intake(WS, FILE);

    const expiresAt = new Date(NOW.getTime() + TTL_HOURS * 3600_000);
    expect(result).toMatchObject({ fileName: 'leads.csv', columns: ['phone', 'name'], rowCount: 7, expiresAt: expiresAt.toISOString() });
    expect(result.preview).toHaveLength(5);
    expect(result.preview[0]).toEqual({ phone: '+14155550100', name: 'N0' });
    const meta = await s.uploads.find(WS, result.uploadId, NOW);
    expect(meta).toMatchObject({ workspaceId: WS, columns: ['phone', 'name'], rowCount: 7, expiresAt });
    const rows = await s.uploads.readRows(result.uploadId, 0, 100);
    expect(rows.map((r) => r.rowNo)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(rows[6].cells).toEqual(['+14155550106', 'N6']);
  });

  it('pads short rows and accepts trailing empty cells', async () => {
    const s = setup([['phone', 'name', 'city'], ['+14155550100'], ['+14155550101', 'B', 'Paris', '', '']]);
    const result = await s.intake.intake(WS, FILE);
    expect((await s.uploads.readRows(result.uploadId, 0, 10)).map((r) => r.cells)).toEqual([
      ['+14155550100', '', ''],
      ['+14155550101', 'B', 'Paris'],
    ]);
  });

  it('stores large files in batches, every row kept in order', async () => {
    const s = setup([['phone'], ...Array.from({ length: 4_500 }, (_, i) => [`+1415${String(i).padStart(7, '0')}`])]);
    const result = await s.intake.intake(WS, FILE);
    expect(result.rowCount).toBe(4_500);
    const rows = await s.uploads.readRows(result.uploadId, 4_498, 10);
    expect(rows.map((r) => r.rowNo)).toEqual([4_499, 4_500]);
  });

  it('deletes expired uploads first', async () => {
    const s = setup([['phone'], ['+14155550100']]);
    s.uploads.seed({ id: 'old', workspaceId: WS, fileName: 'old.csv', expiresAt: new Date(NOW.getTime() - 1), createdAt: NOW }, [['phone'], ['1']]);
    await s.intake.intake(WS, FILE);
    expect(s.uploads.purges).toEqual([{ now: NOW, limit: 100 }]);
    expect(s.uploads.metas.has('old')).toBe(false);
  });

  it.each([
    ['an empty file', []],
    ['a header without data rows', [['phone', 'name']]],
    ['an empty header row', [['', ''], ['1', '2']]],
    ['a header with an unnamed column', [['phone', '', 'name'], ['1', '2', '3']]],
    ['duplicate column names (case-insensitive)', [['Phone', 'phone'], ['1', '2']]],
    ['more than 200 columns', [Array.from({ length: 201 }, (_, i) => `c${i}`), ['1']]],
    ['a row with more non-empty cells than the header', [['phone'], ['+14155550100'], ['+14155550101', 'extra']]],
  ])('answers invalid_csv_format for %s, storing nothing', async (_what, table) => {
    const s = setup(table);
    await expect(s.intake.intake(WS, FILE)).rejects.toMatchObject({ code: 'invalid_csv_format' });
    expect(s.uploads.metas.size).toBe(0);
    expect(s.uow.runs).toBe(1);
  });

  it('answers excel_mangled_phone for scientific notation in a phone-like column, storing nothing', async () => {
    const s = setup([['name', 'Mobile'], ['A', '+14155550100'], ['B', '9.19876E+11']]);
    await expect(s.intake.intake(WS, FILE)).rejects.toMatchObject({
      code: 'excel_mangled_phone',
      options: { detail: { column: 'Mobile', row: 2, value: '9.19876E+11' } },
    });
    expect(s.uploads.metas.size).toBe(0);
    expect(s.uploads.rows.size).toBe(0);
  });

  it('accepts scientific notation in a column that does not hold phones', async () => {
    const s = setup([['phone', 'score'], ['+14155550100', '1.5E+3']]);
    await expect(s.intake.intake(WS, FILE)).resolves.toMatchObject({ rowCount: 1, preview: [{ score: '1.5E+3' }] });
  });
});
