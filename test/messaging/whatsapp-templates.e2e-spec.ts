import { WorkerModule } from '../../apps/worker/src/worker.module';
import { expectError } from '../campaigns/campaign-helpers';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { count, createTemplate, Res, templateBody } from './messaging-helpers';

/*
 * Issue 12 item 3: WhatsApp templates through the real API. CRUD, the bindings checked against the
 * body's placeholders, and submit → PENDING → APPROVED | REJECTED by the review job of the real
 * worker (sandbox: a name starting with `reject` is rejected). Decisions.md 30.4, 30.5.
 */
describe('WhatsApp templates (/whatsapp/templates)', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['whatsapp'] });
  });

  const k = () => bearer(ws.key);
  const get = (id: string, key = ws.key) => t.http.get(`/whatsapp/templates/${id}`).set(bearer(key));
  const patch = (id: string, body: unknown, key = ws.key) => t.http.patch(`/whatsapp/templates/${id}`).set(bearer(key)).send(body as object);
  const submit = (id: string, key = ws.key) => t.http.post(`/whatsapp/templates/${id}/submit`).set(bearer(key));
  const paths = (res: Res) => (res.body.issues as Array<{ path: string }>).map((i) => i.path);

  describe('without a worker (nothing is reviewed)', () => {
    it('creates a DRAFT, lists and reads it; submit makes it PENDING with one review job; a PENDING template cannot be edited', async () => {
      const body = templateBody();
      const created = await t.http.post('/whatsapp/templates').set(k()).send(body);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        ...body,
        status: 'DRAFT',
        rejectionReason: null,
        submittedAt: null,
        reviewedAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const id = created.body.id as string;
      const listed = await t.http.get('/whatsapp/templates').set(k());
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({ templates: [created.body] });
      expect((await get(id)).body).toEqual(created.body);

      const submitted = await submit(id);
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({ id, status: 'PENDING', submittedAt: expect.any(String) });
      expect((await submit(id)).body.status).toBe('PENDING');
      const jobs = await t.dataSource.query(`SELECT queue, name, payload FROM outbox WHERE payload->>'templateId' = $1`, [id]);
      expect(jobs).toEqual([{ queue: 'messaging', name: 'review-template', payload: { templateId: id } }]);

      expectError(await patch(id, { body: 'Changed {{1}} {{2}} {{3}}' }), 400, 'invalid_request');
      expect((await get(id)).body).toMatchObject({ status: 'PENDING', body: body.body });
    });

    it('checks the bindings against the placeholders: 400 invalid_body with the path, nothing written', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ body: 'Hi {{1}} {{3}}', bindings: [{ placeholder: 1, source: 'CONSTANT', value: 'a' }, { placeholder: 3, source: 'CONSTANT', value: 'b' }] }, 'body'],
        [{ body: 'Hi {{1}} {{2}}', bindings: [{ placeholder: 1, source: 'CONSTANT', value: 'a' }] }, 'bindings'],
        [{ body: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONSTANT', value: 'a' }, { placeholder: 2, source: 'CONSTANT', value: 'b' }] }, 'bindings.1.placeholder'],
        [{ body: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONSTANT', value: 'a' }, { placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] }, 'bindings.1.placeholder'],
        [{ body: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'RUNTIME', value: 'coupon' }] }, 'bindings.0.value'],
        [{ body: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'SECRET', value: 'a' }] }, 'bindings.0.source'],
        [{ body: 'Hi {{1}}', bindings: [{ placeholder: 0, source: 'CONSTANT', value: 'a' }] }, 'bindings.0.placeholder'],
        [{ body: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONSTANT', value: '' }] }, 'bindings.0.value'],
        [{ body: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONSTANT', value: 'a', extra: true }] }, 'bindings.0.extra'],
        [{ name: 'Order Update' }, 'name'],
        [{ name: 'x'.repeat(513) }, 'name'],
        [{ language: 'english' }, 'language'],
        [{ category: 'PROMO' }, 'category'],
        [{ body: '' }, 'body'],
        [{ body: 'x'.repeat(1025), bindings: [] }, 'body'],
        [{ footer: 'x'.repeat(61) }, 'footer'],
        [{ bindings: 'none' }, 'bindings'],
        [{ status: 'APPROVED' }, 'status'],
      ];
      for (const [overrides, path] of cases) {
        const res = await t.http.post('/whatsapp/templates').set(k()).send(templateBody(overrides));
        expectError(res, 400, 'invalid_body');
        expect({ overrides, paths: paths(res) }).toEqual({ overrides, paths: expect.arrayContaining([path]) });
      }
      for (const missing of ['name', 'language', 'category', 'body']) {
        const body: Record<string, unknown> = templateBody();
        delete body[missing];
        const res = await t.http.post('/whatsapp/templates').set(k()).send(body);
        expectError(res, 400, 'invalid_body');
        expect(paths(res)).toContain(missing);
      }
      expect(await count(t, 'whatsapp_templates')).toBe(0);
    });

    it('PATCH checks the merged template; name + language is unique (409 name_taken); DELETE; unknown ids are template_not_found', async () => {
      const a = await createTemplate(t, ws.key, { name: 'order_update' });
      const b = await createTemplate(t, ws.key, { name: 'order_update', language: 'pt_BR' });
      expectError(await t.http.post('/whatsapp/templates').set(k()).send(templateBody({ name: 'order_update' })), 409, 'name_taken');
      expectError(await patch(b.id as string, { language: 'en_US' }), 409, 'name_taken');
      const gap = await patch(a.id as string, { body: 'Only {{1}}' });
      expectError(gap, 400, 'invalid_body');
      expect(paths(gap)).toContain('bindings.1.placeholder');
      expectError(await patch(a.id as string, {}), 400, 'no_fields_to_update');
      expectError(await patch(a.id as string, { footer: 'x'.repeat(61) }), 400, 'invalid_body');

      const changed = await patch(a.id as string, { body: 'Only {{1}}', bindings: [{ placeholder: 1, source: 'RUNTIME', value: 'payment_link' }], footer: null });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ body: 'Only {{1}}', footer: null, status: 'DRAFT', bindings: [{ placeholder: 1, source: 'RUNTIME', value: 'payment_link' }] });

      expect((await t.http.delete(`/whatsapp/templates/${b.id}`).set(k())).status).toBe(204);
      for (const res of [await get(b.id as string), await patch(b.id as string, { footer: 'x' }), await submit(b.id as string), await t.http.delete(`/whatsapp/templates/${b.id}`).set(k()), await get('nope')]) {
        expectError(res, 404, 'template_not_found');
      }
      expect(await count(t, 'whatsapp_templates')).toBe(1);
    });

    it("another workspace's key: 404 template_not_found on every item route, nothing changes", async () => {
      const a = await createTemplate(t, ws.key);
      const other = await t.seed({ features: ['whatsapp'] });
      expect((await t.http.get('/whatsapp/templates').set(bearer(other.key))).body).toEqual({ templates: [] });
      expectError(await get(a.id as string, other.key), 404, 'template_not_found');
      expectError(await patch(a.id as string, { footer: 'mine' }, other.key), 404, 'template_not_found');
      expectError(await submit(a.id as string, other.key), 404, 'template_not_found');
      expectError(await t.http.delete(`/whatsapp/templates/${a.id}`).set(bearer(other.key)), 404, 'template_not_found');
      expect((await get(a.id as string)).body).toEqual(a);
    });
  });

  describe('with the worker (the review job)', () => {
    let worker: WorkerApp;
    beforeAll(async () => {
      worker = await WorkerApp.create({ root: WorkerModule });
    });
    afterAll(() => worker?.close());

    const statusOf = async (id: string) => (await get(id)).body.status as string;

    it('the sandbox approves a template after one review job; an edit takes it back to DRAFT', async () => {
      const a = await createTemplate(t, ws.key);
      await submit(a.id as string);
      await waitFor('the template to be reviewed', async () => (await statusOf(a.id as string)) === 'APPROVED', 20_000);
      expect((await get(a.id as string)).body).toMatchObject({ status: 'APPROVED', rejectionReason: null, reviewedAt: expect.any(String) });
      expectError(await submit(a.id as string), 400, 'invalid_request');
      const edited = await patch(a.id as string, { footer: 'New footer' });
      expect(edited.body).toMatchObject({ status: 'DRAFT', footer: 'New footer' });
    });

    it('a name starting with reject is REJECTED with the reason; it can be edited and submitted again', async () => {
      const r = await createTemplate(t, ws.key, { name: 'reject_this_offer' });
      await submit(r.id as string);
      await waitFor('the template to be rejected', async () => (await statusOf(r.id as string)) === 'REJECTED', 20_000);
      expect((await get(r.id as string)).body.rejectionReason).toContain('reject');
      expect((await submit(r.id as string)).body.status).toBe('PENDING');
      await waitFor('the second review', async () => (await statusOf(r.id as string)) === 'REJECTED', 20_000);
      const renamed = await patch(r.id as string, { name: 'accepted_offer' });
      expect(renamed.body).toMatchObject({ status: 'DRAFT', rejectionReason: null });
      await submit(r.id as string);
      await waitFor('the renamed template to be approved', async () => (await statusOf(r.id as string)) === 'APPROVED', 20_000);
    });
  });
});
