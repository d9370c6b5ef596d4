import { bearer, Seeded, TestApp } from '../support/test-app';

/** Inputs the fuzzer once turned into 500s; each must now be a clear 4xx that changes nothing. */
describe('fuzz regressions', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    ws = await t.seed();
  });
  afterAll(() => t.close());

  it.each(['/dnc', '/credits/recharges'])('GET %s with an offset past the bigint range → 400 invalid_query', async (path) => {
    for (const offset of ['9999999999999999999999', '99999999999999999999', '1000001']) {
      const res = await t.http.get(`${path}?offset=${offset}`).set(bearer(ws.key));
      expect([res.status, res.body.error, res.body.issues?.[0]?.path]).toEqual([400, 'invalid_query', 'offset']);
    }
    await t.http.get(`${path}?offset=1000000`).set(bearer(ws.key)).expect(200);
  });

  it('an uploaded file with NUL bytes → 400 invalid_csv_format, nothing stored', async () => {
    const res = await t.http
      .post('/uploads')
      .set(bearer(ws.key))
      .attach('file', Buffer.from('phone,name\n+14155550125,A\u0000B\n'), 'a.csv');
    expect([res.status, res.body.error]).toEqual([400, 'invalid_csv_format']);
    const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM uploads`);
    expect(count).toBe(0);
  });

  it('a JSON string holding U+0000 → 400 invalid_body at its path, nothing stored', async () => {
    const res = await t.http.post('/dnc').set(bearer(ws.key)).send({ phone: '+14155550125', reason: 'a\u0000b' });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_body']);
    expect(res.body.issues).toEqual([{ path: 'reason', message: expect.stringContaining('NUL') }]);
    const listed = await t.http.get('/dnc').set(bearer(ws.key));
    expect(listed.body.total).toBe(0);
  });
});
