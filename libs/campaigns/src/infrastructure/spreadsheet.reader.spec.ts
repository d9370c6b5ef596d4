import { CsvXlsxSpreadsheetReader } from './spreadsheet.reader';

/* The CSV reader over a file larger than one parser slice (64 KiB): rows and multi-byte characters split between slices come out whole. */

describe('CsvXlsxSpreadsheetReader (CSV)', () => {
  it('reads a file of many slices row by row, characters and quoted newlines split between slices kept whole', async () => {
    const lines = ['name;phone;note'];
    for (let i = 0; i < 5000; i++) lines.push(`Zoë ${i};+1415555${String(i % 10_000).padStart(4, '0')};"😀 line\nend ${i}"`);
    const buffer = Buffer.from(lines.join('\r\n') + '\r\n');
    expect(buffer.length).toBeGreaterThan(3 * 64 * 1024);
    const rows: string[][] = [];
    for await (const row of new CsvXlsxSpreadsheetReader().rows({ buffer, fileName: 'a.csv', mimeType: 'text/csv' })) rows.push(row);
    expect(rows).toHaveLength(5001);
    expect(rows[0]).toEqual(['name', 'phone', 'note']);
    rows.slice(1).forEach((row, i) => expect(row).toEqual([`Zoë ${i}`, `+1415555${String(i).padStart(4, '0')}`, `😀 line\nend ${i}`]));
  });
});
