import { WhatsappSenders } from '@outreach/messaging';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { expectError } from '../campaigns/campaign-helpers';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { connectSender, count, CREDENTIALS, numberEndingIn, SENDER_FIELDS } from './messaging-helpers';

/*
 * Issue 12 items 2 and 8: WhatsApp senders through the real API, verified by the real worker
 * (outbox → BullMQ → the messaging processor → the sandbox provider). Decisions.md 30.2.
 */
describe('WhatsApp senders (/whatsapp/senders)', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
    worker = await WorkerApp.create({ root: WorkerModule });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['whatsapp'] });
  });

  const k = () => bearer(ws.key);
  const list = async (key = ws.key) => (await t.http.get('/whatsapp/senders').set(bearer(key))).body.senders as Array<Record<string, unknown>>;
  const get = (id: string, key = ws.key) => t.http.get(`/whatsapp/senders/${id}`).set(bearer(key));
  const statusOf = async (id: string) => (await get(id)).body.status as string;

  it('connects an own number: CONNECTING, then CONNECTED by the verification job; exactly the contract’s fields, never a credential', async () => {
    const phone = numberEndingIn(3);
    const created = await t.http.post('/whatsapp/senders').set(k()).send({ phoneNumber: phone, phoneDisplay: '+1 415 our line', credentials: CREDENTIALS });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      mode: 'DEDICATED',
      status: 'CONNECTING',
      numberSource: 'OWN_NUMBER',
      isDefault: true,
      phoneDisplay: '+1 415 our line',
      hasCredentials: true,
      connectedAt: null,
      verifiedName: null,
      qualityRating: null,
    });
    const id = created.body.id as string;
    await waitFor('the sender to be verified', async () => (await statusOf(id)) === 'CONNECTED', 20_000);
    const senders = await list();
    expect(senders).toHaveLength(1);
    expect(Object.keys(senders[0]).sort()).toEqual(SENDER_FIELDS);
    expect(senders[0]).toMatchObject({ id, status: 'CONNECTED', verifiedName: `Sandbox ${phone.slice(-4)}`, qualityRating: 'GREEN' });
    expect(Date.parse(senders[0].connectedAt as string)).not.toBeNaN();
    for (const body of [created.body, senders, (await get(id)).body]) expect(JSON.stringify(body)).not.toContain('super_secret');

    // Sealed at rest, bound to the row: the token is nowhere in the row, and the service can read it back.
    const [row] = await t.dataSource.query(`SELECT * FROM whatsapp_senders WHERE id = $1`, [id]);
    expect(JSON.stringify(row)).not.toContain('super_secret');
    expect(row.credentials_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);

    // The job went through the outbox, carried the id only, and replaying it changes nothing.
    const [outbox] = await t.dataSource.query(`SELECT payload, dispatched_at FROM outbox WHERE payload->>'senderId' = $1`, [id]);
    expect(outbox.payload).toEqual({ senderId: id });
    expect(outbox.dispatched_at).not.toBeNull();
    const before = (await get(id)).body;
    await worker.get(WhatsappSenders).verify(id);
    expect((await get(id)).body).toEqual(before);
  });

  it('the sandbox refuses a number ending in 0: FAILED, never connected', async () => {
    const created = await connectSender(t, ws.key, numberEndingIn(0));
    await waitFor('the sender to fail', async () => (await statusOf(created.id as string)) === 'FAILED', 20_000);
    expect((await get(created.id as string)).body).toMatchObject({ status: 'FAILED', connectedAt: null, verifiedName: null, qualityRating: null });
  });

  it('PATCH sets the display and the default (one default at a time); DELETE disconnects and promotes the oldest other', async () => {
    const a = await connectSender(t, ws.key, numberEndingIn(5));
    const b = await connectSender(t, ws.key, numberEndingIn(6));
    expect([a.isDefault, b.isDefault]).toEqual([true, false]);

    const patched = await t.http.patch(`/whatsapp/senders/${b.id}`).set(k()).send({ isDefault: true, phoneDisplay: 'Support line' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: b.id, isDefault: true, phoneDisplay: 'Support line' });
    expect((await list()).map((s) => [s.id, s.isDefault])).toEqual([
      [a.id, false],
      [b.id, true],
    ]);

    // The default cannot be switched off by itself; an empty PATCH; an unknown member; bounds.
    expectError(await t.http.patch(`/whatsapp/senders/${b.id}`).set(k()).send({ isDefault: false }), 400, 'invalid_request');
    expectError(await t.http.patch(`/whatsapp/senders/${b.id}`).set(k()).send({}), 400, 'no_fields_to_update');
    expectError(await t.http.patch(`/whatsapp/senders/${b.id}`).set(k()).send({ status: 'CONNECTED' }), 400, 'invalid_body');
    expectError(await t.http.patch(`/whatsapp/senders/${b.id}`).set(k()).send({ phoneDisplay: 'x'.repeat(65) }), 400, 'invalid_body');
    expectError(await t.http.patch(`/whatsapp/senders/${b.id}`).set(k()).send({ phoneDisplay: '' }), 400, 'invalid_body');
    expect((await get(b.id as string)).body).toMatchObject({ isDefault: true, phoneDisplay: 'Support line' });

    const removed = await t.http.delete(`/whatsapp/senders/${b.id}`).set(k());
    expect(removed.status).toBe(204);
    expectError(await get(b.id as string), 404, 'not_found');
    expectError(await t.http.delete(`/whatsapp/senders/${b.id}`).set(k()), 404, 'not_found');
    expect((await list()).map((s) => [s.id, s.isDefault])).toEqual([[a.id, true]]);
    expect(await count(t, 'whatsapp_senders')).toBe(1);
  });

  it('refuses bad input with invalid_body (or invalid_request for a number connected twice) and writes nothing', async () => {
    const ok = { phoneNumber: numberEndingIn(7), credentials: CREDENTIALS };
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...ok, phoneNumber: '4155550123' }, 'phoneNumber'],
      [{ ...ok, phoneNumber: '+0123456789' }, 'phoneNumber'],
      [{ ...ok, phoneNumber: '+1234567890123456' }, 'phoneNumber'],
      [{ phoneNumber: ok.phoneNumber }, 'credentials'],
      [{ ...ok, credentials: { ...CREDENTIALS, accessToken: '' } }, 'credentials.accessToken'],
      [{ ...ok, credentials: { ...CREDENTIALS, accessToken: 'x'.repeat(4097) } }, 'credentials.accessToken'],
      [{ ...ok, credentials: { ...CREDENTIALS, phoneNumberId: 'x'.repeat(65) } }, 'credentials.phoneNumberId'],
      [{ ...ok, credentials: { accessToken: 'a', phoneNumberId: '1' } }, 'credentials.businessAccountId'],
      [{ ...ok, credentials: { ...CREDENTIALS, extra: 1 } }, 'credentials.extra'],
      [{ ...ok, phoneDisplay: 'x'.repeat(65) }, 'phoneDisplay'],
      [{ ...ok, isDefault: 'yes' }, 'isDefault'],
      [{ ...ok, mode: 'SHARED' }, 'mode'],
    ];
    for (const [body, path] of bad) {
      const res = await t.http.post('/whatsapp/senders').set(k()).send(body);
      expectError(res, 400, 'invalid_body');
      expect((res.body.issues as Array<{ path: string }>).map((i) => i.path)).toContain(path);
    }
    expect(await count(t, 'whatsapp_senders')).toBe(0);
    expect(await count(t, 'outbox')).toBe(0);

    await connectSender(t, ws.key, ok.phoneNumber);
    expectError(await t.http.post('/whatsapp/senders').set(k()).send(ok), 400, 'invalid_request');
    expect(await count(t, 'whatsapp_senders')).toBe(1);
    expect(await count(t, 'outbox')).toBe(1);
  });

  it("another workspace's key: the list is empty and every item route is 404 not_found; nothing changes", async () => {
    const a = await connectSender(t, ws.key, numberEndingIn(8));
    const other = await t.seed({ features: ['whatsapp'] });
    expect(await list(other.key)).toEqual([]);
    expectError(await get(a.id as string, other.key), 404, 'not_found');
    expectError(await t.http.patch(`/whatsapp/senders/${a.id}`).set(bearer(other.key)).send({ phoneDisplay: 'mine' }), 404, 'not_found');
    expectError(await t.http.delete(`/whatsapp/senders/${a.id}`).set(bearer(other.key)), 404, 'not_found');
    expectError(await get('not-a-uuid'), 404, 'not_found');
    expect((await get(a.id as string)).body.phoneDisplay).toBe(a.phoneDisplay);
  });

  it('the whatsapp feature off → 403 feature_not_available on every route, nothing written', async () => {
    const off = await t.seed();
    const key = bearer(off.key);
    const id = '0b0b0b0b-0000-4000-8000-000000000000';
    for (const res of [
      await t.http.get('/whatsapp/senders').set(key),
      await t.http.post('/whatsapp/senders').set(key).send({ phoneNumber: numberEndingIn(3), credentials: CREDENTIALS }),
      await t.http.get(`/whatsapp/senders/${id}`).set(key),
      await t.http.patch(`/whatsapp/senders/${id}`).set(key).send({ phoneDisplay: 'x' }),
      await t.http.delete(`/whatsapp/senders/${id}`).set(key),
      await t.http.get('/whatsapp/templates').set(key),
      await t.http.post(`/whatsapp/templates/${id}/submit`).set(key),
    ]) {
      expectError(res, 403, 'feature_not_available');
    }
    expect(await count(t, 'whatsapp_senders')).toBe(0);
  });

  it('scopes: whatsapp.view reads, whatsapp.edit changes (403 forbidden naming the scope)', async () => {
    const viewer = await t.addKey(ws.workspaceId, { scopes: ['whatsapp.view'] });
    expect((await t.http.get('/whatsapp/senders').set(bearer(viewer.key))).status).toBe(200);
    const refused = await t.http.post('/whatsapp/senders').set(bearer(viewer.key)).send({ phoneNumber: numberEndingIn(3), credentials: CREDENTIALS });
    expectError(refused, 403, 'forbidden');
    expect(refused.body.requiredPermission).toBe('whatsapp.edit');
    const editorOnly = await t.addKey(ws.workspaceId, { scopes: ['whatsapp.edit'] });
    const noView = await t.http.get('/whatsapp/senders').set(bearer(editorOnly.key));
    expectError(noView, 403, 'forbidden');
    expect(noView.body.requiredPermission).toBe('whatsapp.view');
  });
});
