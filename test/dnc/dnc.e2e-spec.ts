import { randomUUID } from 'node:crypto';
import { DoNotCallList } from '@outreach/dnc';
import { TransactionHost } from '@outreach/platform';
import { capturing, rowsRead } from '../support/plans';
import { bearer, Seeded, TestApp } from '../support/test-app';

type Res = { status: number; body: Record<string, unknown> };
type Entry = { id: string; phone: string; reason: string | null; createdAt: string };

const expectError = (res: Res, status: number, code: string) => {
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error: code });
  expect(typeof res.body.requestId).toBe('string');
};

/** Issue 5: the per-workspace do-not-call list (GET/POST/DELETE /dnc; calls.view / calls.edit). */
describe('do-not-call list', () => {
  let t: TestApp;
  let ws: Seeded;
  let dnc: DoNotCallList;

  beforeAll(async () => {
    t = await TestApp.create();
    dnc = t.get(DoNotCallList);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
  });

  const add = (body: object, key = ws.key) => t.http.post('/dnc').set(bearer(key)).send(body);
  const list = (query = '', key = ws.key) => t.http.get(`/dnc${query}`).set(bearer(key));
  const remove = (phoneOrId: string, key = ws.key) => t.http.delete(`/dnc/${encodeURIComponent(phoneOrId)}`).set(bearer(key));

  it('adds a number normalised to E.164; adding it again (in any notation) keeps one entry', async () => {
    const first = await add({ phone: '+1 (415) 555-2671', reason: 'asked to stop' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(String), phone: '+14155552671', reason: 'asked to stop', createdAt: expect.any(String) });

    const again = await add({ phone: '+14155552671' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const viaZeros = await add({ phone: '001 415 555 2671', reason: 'other reason' });
    expect(viaZeros.body.id).toBe(first.body.id);

    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [first.body], total: 1 });
  });

  it('400 invalid_phone for a number that cannot be normalised; 400 invalid_body for a bad body; nothing stored', async () => {
    for (const phone of ['12345', 'call me', '4155552671', '+999 123']) {
      expectError(await add({ phone }), 400, 'invalid_phone');
    }
    expectError(await add({}), 400, 'invalid_body');
    expectError(await add({ phone: 4155552671 }), 400, 'invalid_body');
    expectError(await add({ phone: '+14155552671', reason: 'x'.repeat(501) }), 400, 'invalid_body');
    expectError(await add({ phone: '+14155552671', extra: true }), 400, 'invalid_body');
    expect((await list()).body).toEqual({ items: [], total: 0 });
  });

  it('lists newest first with offset/limit and total', async () => {
    const phones = ['+14155552671', '+442079460958', '+33612345678', '+4915112345678', '+14155552672'];
    for (const phone of phones) await add({ phone });
    const all = (await list()).body as { items: Entry[]; total: number };
    expect(all.total).toBe(5);
    expect(new Set(all.items.map((e) => e.phone))).toEqual(new Set(phones));
    const page = (await list('?offset=2&limit=2')).body as { items: Entry[]; total: number };
    expect(page).toEqual({ items: all.items.slice(2, 4), total: 5 });
    expectError(await list('?limit=0'), 400, 'invalid_query');
    expectError(await list('?offset=-1'), 400, 'invalid_query');
  });

  it('deletes by phone (any notation) or by id → 204; 404 not_found when absent', async () => {
    const a = (await add({ phone: '+14155552671' })).body as Entry;
    const b = (await add({ phone: '+442079460958' })).body as Entry;

    expect((await remove('+1 415 555 2671')).status).toBe(204);
    expectError(await remove('+14155552671'), 404, 'not_found');
    expect((await remove(b.id)).status).toBe(204);
    expectError(await remove(b.id), 404, 'not_found');
    expectError(await remove(randomUUID()), 404, 'not_found');
    expectError(await remove('not-a-number'), 404, 'not_found');
    expect((await list()).body).toEqual({ items: [], total: 0 });
    expect(a.id).not.toBe(b.id);
  });

  it('is per workspace: another workspace neither sees nor deletes the entries', async () => {
    const other = await t.seed();
    const mine = (await add({ phone: '+14155552671' })).body as Entry;
    expect((await list('', other.key)).body).toEqual({ items: [], total: 0 });
    expectError(await remove(mine.id, other.key), 404, 'not_found');
    expectError(await remove('+14155552671', other.key), 404, 'not_found');
    expect(await dnc.isBlocked(ws.workspaceId, '+14155552671')).toBe(true);
    expect(await dnc.isBlocked(other.workspaceId, '+14155552671')).toBe(false);
  });

  it('scopes: calls.view lists, calls.edit adds and deletes', async () => {
    const viewer = (await t.addKey(ws.workspaceId, { scopes: ['calls.view'] })).key;
    expect((await list('', viewer)).status).toBe(200);
    const denied = await add({ phone: '+14155552671' }, viewer);
    expectError(denied, 403, 'forbidden');
    expect(denied.body.requiredPermission).toBe('calls.edit');
    expectError(await remove('+14155552671', viewer), 403, 'forbidden');
    const none = (await t.addKey(ws.workspaceId, { scopes: ['billing.view'] })).key;
    expectError(await list('', none), 403, 'forbidden');
    expect((await list()).body.total).toBe(0);
  });

  it('isBlocked and blockedAmong answer for E.164 numbers, in bulk too', async () => {
    await add({ phone: '+14155552671' });
    await add({ phone: '+442079460958' });
    expect(await dnc.isBlocked(ws.workspaceId, '+14155552671')).toBe(true);
    expect(await dnc.isBlocked(ws.workspaceId, '+14155552672')).toBe(false);

    const many = Array.from({ length: 2500 }, (_, i) => `+1415555${String(3000 + i).padStart(4, '0')}`);
    const blocked = await dnc.blockedAmong(ws.workspaceId, [...many, '+442079460958', '+14155552671', '+14155552671']);
    expect(blocked).toEqual(new Set(['+442079460958', '+14155552671']));
    expect(await dnc.blockedAmong(ws.workspaceId, [])).toEqual(new Set());

    await remove('+442079460958');
    expect(await dnc.isBlocked(ws.workspaceId, '+442079460958')).toBe(false);
  });

  it('blockedAmong probes the list once per number, also with statistics older than the list (decisions.md 47.22)', async () => {
    // The statistics say the list is empty; then 3,000 numbers are listed, two of them asked about.
    await t.dataSource.query(`ANALYZE dnc_entries`);
    await t.dataSource.query(
      `INSERT INTO dnc_entries (id, workspace_id, phone, created_at)
       SELECT gen_random_uuid(), $1, '+1666' || lpad(i::text, 7, '0'), now() FROM generate_series(1, 3000) AS i`,
      [ws.workspaceId],
    );
    const asked = Array.from({ length: 200 }, (_, i) => `+1415${5_550_000 + i}`);
    asked[7] = '+16660000008';
    asked[150] = '+16660002999';
    const { result, sent } = await capturing(t.get(TransactionHost), (sql) => sql.includes('dnc_entries'), () => dnc.blockedAmong(ws.workspaceId, asked));
    expect(result).toEqual(new Set(['+16660000008', '+16660002999']));
    expect(sent).toHaveLength(1);
    // The two entries, nothing else (as `phone = ANY(…)` it read all 3,000).
    expect(await rowsRead(t.dataSource, sent[0], 'dnc_entries')).toBe(2);
  });

  it('concurrent adds of one number keep one entry', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => add({ phone: '+14155552671' })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await list()).body.total).toBe(1);
  });
});
