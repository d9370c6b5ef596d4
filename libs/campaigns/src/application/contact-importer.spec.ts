import { AppError } from '@outreach/core';
import { InMemoryContactRepository, InMemoryUploadStore } from '../testing';
import { ContactImporter, UPLOAD_PAGE_SIZE } from './contact-importer';

/* ContactImporter over in-memory contacts and uploads: what is stored, what is refused and why. */

const W = 'w1';
const C = 'c1';

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('ContactImporter', () => {
  let contacts: InMemoryContactRepository;
  let uploads: InMemoryUploadStore;
  let importer: ContactImporter;

  beforeEach(() => {
    contacts = new InMemoryContactRepository();
    uploads = new InMemoryUploadStore();
    contacts.readUploadsFrom(uploads);
    importer = new ContactImporter(uploads, contacts);
  });

  describe('JSON contacts', () => {
    it('stores E.164 phones (countryCode as the default), drops repeats and phones the campaign has', async () => {
      await contacts.insertMany(W, C, [{ phone: '+919876543211', altPhones: [], name: null, fields: {} }]);
      const summary = await importer.importContacts(
        W,
        C,
        [
          { phone: '98765 43210', name: 'Asha', fields: { city: 'Pune' }, altPhones: ['0044 20 7946 0958', '+91 98765 43210', '+44 20 7946 0958'] },
          { phone: '+91 98765 43210' },
          { phone: '009198765 43211' },
        ],
        { countryCode: '+91', removeInvalidRows: false },
      );
      expect(summary).toEqual({ rows: 3, imported: 1, duplicates: 2, invalid: 0 });
      expect(contacts.phones(C)).toEqual(['+919876543211', '+919876543210']);
      expect(contacts.all()[1]).toMatchObject({ name: 'Asha', fields: { city: 'Pune' }, altPhones: ['+442079460958'], status: 'PENDING' });
    });

    it('refuses the whole request with invalid_phone (status left to the route) and stores nothing', async () => {
      const error = await refusal(
        importer.importContacts(W, C, [{ phone: '+14155552671' }, { phone: 'garbage' }, { phone: '415-555-2671' }], {
          countryCode: null,
          removeInvalidRows: false,
        }),
      );
      expect(error.code).toBe('invalid_phone');
      expect(error.options.status).toBeUndefined();
      expect(error.options.detail).toEqual({ invalid: [{ index: 1, phone: 'garbage' }, { index: 2, phone: '415-555-2671' }] });
      expect(contacts.all()).toEqual([]);
    });

    it('with removeInvalidRows, drops the invalid ones and counts them', async () => {
      const summary = await importer.importContacts(W, C, [{ phone: '+14155552671' }, { phone: 'garbage' }], { countryCode: null, removeInvalidRows: true });
      expect(summary).toEqual({ rows: 2, imported: 1, duplicates: 0, invalid: 1 });
      expect(contacts.phones(C)).toEqual(['+14155552671']);
    });

    it('refuses a phone in scientific notation with excel_mangled_phone, even with removeInvalidRows', async () => {
      const error = await refusal(importer.importContacts(W, C, [{ phone: '+14155552671' }, { phone: '9.19876E+11' }], { countryCode: '+91', removeInvalidRows: true }));
      expect(error.code).toBe('excel_mangled_phone');
      expect(error.options.detail).toEqual({ column: 'phone', row: 1, value: '9.19876E+11' });
      expect(contacts.all()).toEqual([]);
    });
  });

  describe('uploads', () => {
    const upload = (columns: string[], rows: string[][]) =>
      uploads.seed({ id: 'u1', workspaceId: W, fileName: 'leads.csv', expiresAt: new Date('2030-01-01'), createdAt: new Date('2026-01-01') }, [columns, ...rows]);
    const options = { phoneColumn: 'Phone', altPhoneColumns: [], countryCode: '+1', removeInvalidRows: false };

    it('imports rows: the phone column (any case), a name column, the other columns as fields', async () => {
      const meta = upload(['phone', 'Full Name', 'Plan'], [['415 555 2671', 'Ada', 'gold'], ['(415) 555-2672', '', 'silver'], ['+1 415 555 2671', 'Ada again', 'gold']]);
      const summary = await importer.importUpload(W, C, meta, options);
      expect(summary).toEqual({ rows: 3, imported: 2, duplicates: 1, invalid: 0 });
      expect(contacts.all().map((c) => [c.phone, c.name, c.fields])).toEqual([
        ['+14155552671', 'Ada', { 'Full Name': 'Ada', Plan: 'gold' }],
        ['+14155552672', null, { 'Full Name': '', Plan: 'silver' }],
      ]);
    });

    it('names a missing phone or alt column in invalid_body issues', async () => {
      const meta = upload(['mobile', 'other'], [['+14155552671', 'x']]);
      const error = await refusal(importer.importUpload(W, C, meta, { ...options, altPhoneColumns: ['other', 'nope'] }));
      expect(error.code).toBe('invalid_body');
      expect(error.options.issues?.map((i) => i.path)).toEqual(['phoneColumn']);
      expect(() => importer.resolveColumns(meta, { phoneColumn: 'MOBILE', altPhoneColumns: ['nope'] })).toThrow(
        expect.objectContaining({ code: 'invalid_body', options: expect.objectContaining({ issues: [expect.objectContaining({ path: 'altPhoneColumns.0' })] }) }),
      );
    });

    it('refuses invalid rows with their row numbers, or drops them with removeInvalidRows', async () => {
      const meta = upload(['Phone'], [['+14155552671'], ['12'], ['']]);
      const error = await refusal(importer.importUpload(W, C, meta, options));
      expect(error).toMatchObject({ code: 'invalid_phone', options: { detail: { invalid: [{ row: 2, phone: '12' }, { row: 3, phone: '' }] } } });
      expect(error.options.status).toBeUndefined();

      const summary = await importer.importUpload(W, 'c2', meta, { ...options, removeInvalidRows: true });
      expect(summary).toEqual({ rows: 3, imported: 1, duplicates: 0, invalid: 2 });
    });

    it('reads the phone cells in pages of UPLOAD_PAGE_SIZE rows, deduplicating across pages (the first row of a phone wins)', async () => {
      const N = UPLOAD_PAGE_SIZE + 5;
      const phone = (k: number) => `+1415${200 + Math.floor(k / 10_000)}${String(k % 10_000).padStart(4, '0')}`;
      const rows = Array.from({ length: N }, (_, i) => [phone(i % (UPLOAD_PAGE_SIZE + 1)), `row ${i + 1}`]);
      const meta = upload(['Phone', 'name'], rows);
      const summary = await importer.importUpload(W, C, meta, options);
      expect(uploads.reads).toEqual([UPLOAD_PAGE_SIZE, UPLOAD_PAGE_SIZE, UPLOAD_PAGE_SIZE]);
      expect(contacts.staged).toEqual([]); // taken by insertStaged
      expect(summary).toEqual({ rows: N, imported: UPLOAD_PAGE_SIZE + 1, duplicates: 4, invalid: 0 });
      expect(contacts.all()).toHaveLength(UPLOAD_PAGE_SIZE + 1);
      expect(contacts.all()[0]).toMatchObject({ phone: '+14152000000', name: 'row 1', fields: { name: 'row 1' } });
    });

    it('counts every invalid row, reports the first 20, and stages nothing once the import is refused', async () => {
      const rows = Array.from({ length: 30 }, (_, i) => [i % 2 ? 'nope' : `+1415555${String(1000 + i).padStart(4, '0')}`]);
      const staged: number[] = [];
      const stage = contacts.stage.bind(contacts);
      contacts.stage = async (batch) => {
        staged.push(batch.length);
        return stage(batch);
      };
      const error = await refusal(importer.importUpload(W, C, upload(['Phone'], rows), options));
      expect(error.code).toBe('invalid_phone');
      expect(error.message).toMatch(/^15 row\(s\)/);
      expect((error.options.detail as { invalid: unknown[] }).invalid).toHaveLength(15);
      expect(staged).toEqual([]);
      expect(contacts.all()).toEqual([]);

      const many = Array.from({ length: 50 }, () => ['nope']);
      const capped = await refusal(importer.importUpload(W, C, upload(['Phone'], many), options));
      expect(capped.message).toMatch(/^50 row\(s\)/);
      expect((capped.options.detail as { invalid: Array<{ row: number }> }).invalid.map((r) => r.row)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });
  });
});
