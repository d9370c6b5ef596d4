import { AppConfig, Clock, FixedClock, loadConfig } from '@outreach/platform';
import writeXlsxFile from 'write-excel-file/node';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { addContacts, attachNumber, createCampaign, credit, expectError, readCampaign, uniqueName } from './campaign-helpers';

const T0 = new Date('2026-11-21T10:00:00Z');
const UPLOAD_LIMIT = 512 * 1024;
const UNKNOWN = '3f1c2b8e-58a1-4b3c-9b2e-7d51c1d0e9a4';

const csv = (...lines: string[]) => Buffer.from(lines.join('\n') + '\n');

describe('contacts: uploads, imports, JSON contacts, leads, retry', () => {
  let t: TestApp;
  let ws: Seeded;
  const clock = new FixedClock(T0);

  beforeAll(async () => {
    const config = Object.assign(loadConfig(), { uploadMaxBytes: UPLOAD_LIMIT });
    t = await TestApp.create({
      configure: (b) => b.overrideProvider(Clock).useValue(clock).overrideProvider(AppConfig).useValue(config),
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    clock.set(T0);
    await t.reset();
    ws = await t.seed();
  });

  const upload = (content: Buffer, filename = 'leads.csv', k = ws.key) =>
    t.http.post('/uploads').set(bearer(k)).attach('file', content, filename);
  const uploadCount = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM uploads`))[0].n as number;
  const contactsOf = async (campaignId: string) =>
    (await t.dataSource.query(
      `SELECT phone, alt_phones, name, fields, status FROM campaign_contacts WHERE campaign_id = $1 ORDER BY seq`,
      [campaignId],
    )) as Array<{ phone: string; alt_phones: string[]; name: string | null; fields: Record<string, string>; status: string }>;
  const countCampaigns = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM campaigns`))[0].n as number;

  describe('POST /uploads', () => {
    it('keeps a CSV server-side and answers its columns, row count and a 5-row preview', async () => {
      const res = await upload(
        csv(
          '\ufeffName,Phone,City',
          'Ann,+14155552671,Paris',
          'Bob,"(415) 555-2672","San Francisco, CA"',
          'Cid,4155552673,Lyon',
          'Dee,4155552674,Nice',
          'Eve,4155552675,Oslo',
          'Fay,4155552676,Rome',
        ),
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        fileName: 'leads.csv',
        columns: ['Name', 'Phone', 'City'],
        rowCount: 6,
        expiresAt: new Date(T0.getTime() + 24 * 3600_000).toISOString(),
      });
      expect(res.body.preview).toHaveLength(5);
      expect(res.body.preview[1]).toEqual({ Name: 'Bob', Phone: '(415) 555-2672', City: 'San Francisco, CA' });
    });

    it('reads semicolon-separated CSV and XLSX (numeric phone cells keep every digit)', async () => {
      const semi = await upload(csv('name;phone', 'Ann;+33 1 23 45 67 89'));
      expect(semi.status).toBe(201);
      expect(semi.body.columns).toEqual(['name', 'phone']);

      const xlsx = await writeXlsxFile([
        [{ value: 'name' }, { value: 'phone' }, { value: 'score' }],
        [{ value: 'Ann' }, { value: 14155552671 }, { value: 4.5 }],
        [{ value: 'Bob' }, { value: '+1 415 555 2672' }, { value: 3 }],
      ]).toBuffer();
      const res = await upload(xlsx, 'leads.xlsx');
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ columns: ['name', 'phone', 'score'], rowCount: 2 });
      expect(res.body.preview[0]).toEqual({ name: 'Ann', phone: '14155552671', score: '4.5' });
    });

    it('400 no_files (not multipart), file_required (no file part), upload_error (other field, two files, broken multipart)', async () => {
      expectError(await t.http.post('/uploads').set(bearer(ws.key)).send({ file: 'x' }), 400, 'no_files');
      expectError(await t.http.post('/uploads').set(bearer(ws.key)), 400, 'no_files');
      expectError(await t.http.post('/uploads').set(bearer(ws.key)).field('file', 'not a file'), 400, 'file_required');
      expectError(await t.http.post('/uploads').set(bearer(ws.key)).attach('document', csv('a', '1'), 'a.csv'), 400, 'upload_error');
      expectError(
        await t.http.post('/uploads').set(bearer(ws.key)).attach('file', csv('a', '1'), 'a.csv').attach('file', csv('b', '2'), 'b.csv'),
        400,
        'upload_error',
      );
      const broken = await t.http
        .post('/uploads')
        .set(bearer(ws.key))
        .set('Content-Type', 'multipart/form-data; boundary=XYZ')
        .send('--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nphone\n1\r\n');
      expectError(broken, 400, 'upload_error');
      expect(await uploadCount()).toBe(0);
    });

    it('413 file_too_large over UPLOAD_MAX_BYTES (never a 500 LIMIT_FILE_SIZE)', async () => {
      const big = Buffer.concat([Buffer.from('phone\n'), Buffer.alloc(UPLOAD_LIMIT + 10, '4155552671\n')]);
      expectError(await upload(big), 413, 'file_too_large');
      expect(await uploadCount()).toBe(0);
    });

    it('400 invalid_csv_format: no data row, empty file, bad header, broken quoting, ragged rows, legacy .xls', async () => {
      for (const content of [
        csv('phone'),
        Buffer.alloc(0),
        csv('phone,,city', '1,2,3'),
        csv('phone,Phone', '1,2'),
        csv('phone,name', '"4155552671,Ann'),
        csv('phone,name', '4155552671,Ann,extra'),
      ]) {
        expectError(await upload(content), 400, 'invalid_csv_format');
      }
      expectError(await upload(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0]), 'old.xls'), 400, 'invalid_csv_format');
      expectError(await upload(Buffer.from('PK\x03\x04 not really a zip'), 'broken.xlsx'), 400, 'invalid_csv_format');
      expect(await uploadCount()).toBe(0);
    });

    it('422 excel_mangled_phone when a phone column holds scientific notation', async () => {
      expectError(await upload(csv('name,mobile', 'Ann,9.19876E+11')), 422, 'excel_mangled_phone');
      expect(await uploadCount()).toBe(0);
    });

    it('uploads need campaigns.edit', async () => {
      const viewer = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view'] });
      const res = await upload(csv('phone', '4155552671'), 'a.csv', viewer.key);
      expectError(res, 403, 'forbidden');
      expect(res.body.requiredPermission).toBe('campaigns.edit');
    });
  });

  describe('importing an upload into a campaign', () => {
    it('on create: phones to E.164 with countryCode, duplicates dropped, other columns become fields', async () => {
      const up = await upload(
        csv(
          'Name,Mobile,Alt,City',
          'Ann,98765 43210,+919876500001,Pune',
          'Bob,+91 98765 43211,,Delhi',
          'Ann again,09876543210,,Pune', // same number as Ann once normalised
          'Cid,+1 415 555 2671,98765 43210,Austin',
        ),
      );
      const res = await t.http
        .post('/v1/campaigns')
        .set(bearer(ws.key))
        .send({ name: uniqueName(), channel: 'VOICE', source: 'CSV', uploadId: up.body.uploadId, phoneColumn: 'Mobile', altPhoneColumns: ['Alt'], countryCode: '+91' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ contactCount: 3, uploadId: up.body.uploadId, phoneColumn: 'Mobile', import: { rows: 4, imported: 3, duplicates: 1, invalid: 0 } });
      expect(await contactsOf(res.body.id)).toEqual([
        { phone: '+919876543210', alt_phones: ['+919876500001'], name: 'Ann', fields: { Name: 'Ann', Alt: '+919876500001', City: 'Pune' }, status: 'PENDING' },
        { phone: '+919876543211', alt_phones: [], name: 'Bob', fields: { Name: 'Bob', Alt: '', City: 'Delhi' }, status: 'PENDING' },
        { phone: '+14155552671', alt_phones: ['+919876543210'], name: 'Cid', fields: { Name: 'Cid', Alt: '98765 43210', City: 'Austin' }, status: 'PENDING' },
      ]);
    });

    it('a file over several COPY batches and import pages: every cell kept byte for byte, repeats across pages dropped, row order kept', async () => {
      const N = 10_050; // two COPY batches of upload rows (5,000 each), six import pages (2,000 each)
      const phone = (k: number) => `+1415${200 + Math.floor(k / 10_000)}${String(k % 10_000).padStart(4, '0')}`;
      const awkward = ['say "hi", then leave', 'back\\slash \\N', 'tab\there', 'two\nlines', 'Zoë 😀 {braces}', 'NULL', '\\.', '"quoted", {a,b}'];
      const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
      const lines = ['Name,Phone,Note,Alt'];
      for (let i = 0; i < N; i++) {
        // Row 10,010 repeats row 5's phone (another page); rows 1-8 carry the awkward notes.
        const k = i === 10_009 ? 4 : i;
        lines.push([quote(`Person ${i + 1}`), phone(k), quote(awkward[i] ?? `note ${i + 1}`), i === 1 ? phone(20_000) : ''].join(','));
      }
      const up = await upload(csv(...lines));
      expect(up.status).toBe(201);
      expect(up.body.rowCount).toBe(N);
      const res = await t.http
        .post('/v1/campaigns')
        .set(bearer(ws.key))
        .send({ name: uniqueName(), channel: 'VOICE', source: 'CSV', uploadId: up.body.uploadId, phoneColumn: 'Phone', altPhoneColumns: ['Alt'] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ contactCount: N - 1, import: { rows: N, imported: N - 1, duplicates: 1, invalid: 0 } });
      const stored = await contactsOf(res.body.id);
      expect(stored).toHaveLength(N - 1);
      expect(stored.slice(0, awkward.length)).toEqual(
        awkward.map((note, i) => ({
          phone: phone(i),
          alt_phones: i === 1 ? [phone(20_000)] : [],
          name: `Person ${i + 1}`,
          fields: { Name: `Person ${i + 1}`, Note: note, Alt: i === 1 ? phone(20_000) : '' },
          status: 'PENDING',
        })),
      );
      // The first row of a repeated phone wins; the contacts keep the file's order.
      expect(stored.find((c) => c.phone === phone(4))?.name).toBe('Person 5');
      expect(stored.map((c) => c.name)).toEqual(Array.from({ length: N }, (_, i) => `Person ${i + 1}`).filter((_, i) => i !== 10_009));
      const [{ n: events }] = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM contact_timeline_events e JOIN campaign_contacts c ON c.id = e.contact_id WHERE c.campaign_id = $1 AND e.type = 'created'`,
        [res.body.id],
      );
      expect(events).toBe(N - 1);
      // No staging table outlives the import's transaction.
      expect(await t.dataSource.query(`SELECT 1 FROM pg_class WHERE relname = 'contact_import_stage'`)).toEqual([]);
    });

    it('invalid phones: 400 invalid_phone and no campaign, unless removeInvalidRows drops them', async () => {
      const up = await upload(csv('phone,name', '+14155552671,Ann', 'not a phone,Bob', '12,Cid'));
      const body = { name: uniqueName(), channel: 'VOICE', source: 'CSV', uploadId: up.body.uploadId, phoneColumn: 'phone' };
      const refused = await t.http.post('/v1/campaigns').set(bearer(ws.key)).send(body);
      expectError(refused, 400, 'invalid_phone');
      expect(refused.body.detail.invalid).toEqual([
        { row: 2, phone: 'not a phone' },
        { row: 3, phone: '12' },
      ]);
      expect(await countCampaigns()).toBe(0);
      const res = await t.http.post('/v1/campaigns').set(bearer(ws.key)).send({ ...body, removeInvalidRows: true });
      expect(res.status).toBe(201);
      expect(res.body.import).toEqual({ rows: 3, imported: 1, duplicates: 0, invalid: 2 });
    });

    it('422 excel_mangled_phone on import when the phone column has an unusual name', async () => {
      const up = await upload(csv('contact,name', '9.19876E+11,Ann'));
      expect(up.status).toBe(201);
      const res = await t.http
        .post('/v1/campaigns')
        .set(bearer(ws.key))
        .send({ name: uniqueName(), channel: 'VOICE', source: 'CSV', uploadId: up.body.uploadId, phoneColumn: 'contact', removeInvalidRows: true });
      expectError(res, 422, 'excel_mangled_phone');
      expect(await countCampaigns()).toBe(0);
    });

    it('404 upload_not_found_or_expired for unknown, foreign or expired uploads; 400 for a missing phone column', async () => {
      const up = await upload(csv('phone', '+14155552671'));
      const create = (extra: Record<string, unknown>, k = ws.key) =>
        t.http.post('/v1/campaigns').set(bearer(k)).send({ name: uniqueName(), channel: 'VOICE', source: 'CSV', ...extra });
      expectError(await create({ uploadId: UNKNOWN, phoneColumn: 'phone' }), 404, 'upload_not_found_or_expired');
      const other = await t.seed();
      expectError(await create({ uploadId: up.body.uploadId, phoneColumn: 'phone' }, other.key), 404, 'upload_not_found_or_expired');
      expectError(await create({ uploadId: up.body.uploadId }), 400, 'invalid_body');
      const wrongColumn = await create({ uploadId: up.body.uploadId, phoneColumn: 'mobile' });
      expectError(wrongColumn, 400, 'invalid_body');
      expect(wrongColumn.body.issues[0].path).toBe('phoneColumn');
      clock.advance(24 * 3600_000);
      expectError(await create({ uploadId: up.body.uploadId, phoneColumn: 'phone' }), 404, 'upload_not_found_or_expired');
      expect(await countCampaigns()).toBe(0);
    });

    it('on PATCH (DRAFT): adds to the existing contacts, skipping phones the campaign has', async () => {
      const c = await createCampaign(t, ws.key);
      await addContacts(t, ws.key, c.id, ['+14155552671']);
      const up = await upload(csv('phone', '+14155552671', '+14155552672'));
      const res = await t.http.patch(`/v1/campaigns/${c.id}`).set(bearer(ws.key)).send({ uploadId: up.body.uploadId, phoneColumn: 'phone' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ contactCount: 2, import: { rows: 2, imported: 1, duplicates: 1, invalid: 0 } });
    });
  });

  describe('POST /campaigns/{id}/contacts', () => {
    it('adds JSON contacts to a DRAFT; duplicates are skipped', async () => {
      const c = await createCampaign(t, ws.key, { countryCode: '+1' });
      const res = await t.http
        .post(`/campaigns/${c.id}/contacts`)
        .set(bearer(ws.key))
        .send([
          { phone: '415 555 2671', name: 'Ann', fields: { plan: 'gold' } },
          { phone: '+14155552671' },
          { phone: '+14155552672', altPhones: ['415 555 2673'] },
        ]);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ rows: 3, imported: 2, duplicates: 1, invalid: 0, contactCount: 2 });
      expect(await contactsOf(c.id)).toEqual([
        { phone: '+14155552671', alt_phones: [], name: 'Ann', fields: { plan: 'gold' }, status: 'PENDING' },
        { phone: '+14155552672', alt_phones: ['+14155552673'], name: null, fields: {}, status: 'PENDING' },
      ]);
      expect((await readCampaign(t, ws.key, c.id)).contactCount).toBe(2);
    });

    it('400 campaign_not_in_draft outside DRAFT; 400 invalid_phone and invalid_body change nothing; 404', async () => {
      const c = await createCampaign(t, ws.key);
      const add = (body: unknown, id = c.id) => t.http.post(`/campaigns/${id}/contacts`).set(bearer(ws.key)).send(body as object);
      expectError(await add([{ phone: '+14155552671' }, { phone: 'garbage' }]), 400, 'invalid_phone');
      expectError(await add({ phone: '+14155552671' }), 400, 'invalid_body');
      expectError(await add([]), 400, 'invalid_body');
      const missing = await add([{ phone: '+14155552671' }, { name: 'no phone' }]);
      expectError(missing, 400, 'invalid_body');
      expect(missing.body.issues[0].path).toBe('1.phone');
      expectError(await add([{ phone: '+14155552671', surprise: 1 }]), 400, 'invalid_body');
      expectError(await add([{ phone: '+14155552671' }], UNKNOWN), 404, 'campaign_not_found');
      expect(await contactsOf(c.id)).toEqual([]);
      for (const status of ['RUNNING', 'PAUSED', 'CANCELED']) {
        await t.dataSource.query(`UPDATE campaigns SET status = $2 WHERE id = $1`, [c.id, status]);
        expectError(await add([{ phone: '+14155552671' }]), 400, 'campaign_not_in_draft');
      }
      expect(await contactsOf(c.id)).toEqual([]);
    });
  });

  describe('GET /campaigns/{id}/leads and contact retry', () => {
    async function runningCampaign(phones: string[]) {
      const agent = await createActiveAgent(t, ws.key);
      const c = await createCampaign(t, ws.key, { agentId: agent.id });
      await attachNumber(t, ws.key, ws.workspaceId, c.id);
      await addContacts(t, ws.key, c.id, phones);
      await credit(t, ws.workspaceId);
      await t.http.post(`/campaigns/${c.id}/start`).set(bearer(ws.key)).expect(200);
      return c;
    }

    it('pages with offset/limit and total, and filters by status', async () => {
      const phones = Array.from({ length: 7 }, (_, i) => `+1415555267${i}`);
      const c = await runningCampaign(phones);
      await t.dataSource.query(`UPDATE campaign_contacts SET status = 'FAILED' WHERE campaign_id = $1 AND phone = ANY($2)`, [c.id, phones.slice(0, 2)]);
      const page = async (query: string) => (await t.http.get(`/campaigns/${c.id}/leads${query}`).set(bearer(ws.key))).body;
      const first = await page('?limit=3');
      expect(first.total).toBe(7);
      expect(first.items.map((i: { phone: string }) => i.phone)).toEqual(phones.slice(0, 3));
      expect((await page('?offset=6&limit=3')).items.map((i: { phone: string }) => i.phone)).toEqual(phones.slice(6));
      const failed = await page('?status=FAILED');
      expect(failed.total).toBe(2);
      expect(failed.items.every((i: { status: string }) => i.status === 'FAILED')).toBe(true);
      expect(Object.keys(failed.items[0]).sort()).toEqual(
        [
          'altPhones',
          'attempts',
          'campaignId',
          'connectedPhone',
          'createdAt',
          'fields',
          'id',
          'lastAttemptAt',
          'lastOutcome',
          'name',
          'nextAttemptAt',
          'phone',
          'phoneIndex',
          'recipientRegion',
          'recipientZone',
          'referralDepth',
          'referredBy',
          'status',
          'updatedAt',
          'waitingReason',
        ].sort(),
      );
      for (const bad of ['?limit=0', '?limit=501', '?offset=-1', '?offset=1000001', '?offset=99999999999999999999999', '?status=LOST', '?limit=ten', '?color=red']) {
        expectError(await t.http.get(`/campaigns/${c.id}/leads${bad}`).set(bearer(ws.key)), 400, 'invalid_query');
      }
      const other = await t.seed();
      expectError(await t.http.get(`/campaigns/${c.id}/leads`).set(bearer(other.key)), 404, 'campaign_not_found');
    });

    it('retry: FAILED → PENDING with fresh attempts, and a dispatch job', async () => {
      const c = await runningCampaign(['+14155552671', '+14155552672']);
      const [failed, pending] = (await t.http.get(`/campaigns/${c.id}/leads`).set(bearer(ws.key))).body.items;
      await t.dataSource.query(`UPDATE campaign_contacts SET status = 'FAILED', attempts = 3 WHERE id = $1`, [failed.id]);
      const retry = (contactId: string, campaignId = c.id) => t.http.post(`/campaigns/${campaignId}/contacts/${contactId}/retry`).set(bearer(ws.key));

      expectError(await retry(pending.id), 400, 'contact_not_failed');
      expectError(await retry(UNKNOWN), 404, 'contact_not_found');
      expectError(await retry('nope'), 404, 'contact_not_found');
      const otherCampaign = await createCampaign(t, ws.key);
      expectError(await retry(failed.id, otherCampaign.id), 404, 'contact_not_found');

      const jobs = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE payload->>'campaignId' = $1`, [c.id]))[0].n;
      const jobsBefore = await jobs();
      const res = await retry(failed.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: failed.id, status: 'PENDING', attempts: 0 });
      expect(await jobs()).toBe(jobsBefore + 1);
      expectError(await retry(failed.id), 400, 'contact_not_failed');
    });

    it('400 campaign_not_active on a campaign that has not started or is finished', async () => {
      const c = await runningCampaign(['+14155552671']);
      const [contact] = (await t.http.get(`/campaigns/${c.id}/leads`).set(bearer(ws.key))).body.items;
      await t.dataSource.query(`UPDATE campaign_contacts SET status = 'FAILED' WHERE id = $1`, [contact.id]);
      await t.http.post(`/campaigns/${c.id}/stop`).set(bearer(ws.key)).expect(200);
      expectError(await t.http.post(`/campaigns/${c.id}/contacts/${contact.id}/retry`).set(bearer(ws.key)), 400, 'campaign_not_active');
      const [row] = await t.dataSource.query(`SELECT status FROM campaign_contacts WHERE id = $1`, [contact.id]);
      expect(row.status).toBe('FAILED');

      const draft = await createCampaign(t, ws.key);
      await addContacts(t, ws.key, draft.id, ['+14155552679']);
      const [draftContact] = (await t.http.get(`/campaigns/${draft.id}/leads`).set(bearer(ws.key))).body.items;
      await t.dataSource.query(`UPDATE campaign_contacts SET status = 'FAILED' WHERE id = $1`, [draftContact.id]);
      expectError(await t.http.post(`/campaigns/${draft.id}/contacts/${draftContact.id}/retry`).set(bearer(ws.key)), 400, 'campaign_not_active');
    });
  });
});
