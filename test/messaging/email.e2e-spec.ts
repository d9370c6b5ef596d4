import { EmailSenderRepository } from '../../libs/messaging/src/application/messaging.ports';
import { expectError } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { count, Res } from './messaging-helpers';

/*
 * Issue 12 item 4: email sender mailboxes (SMTP credentials sealed at rest, never returned) and
 * email templates (subject + HTML/text bodies, the same bindings) through the real API.
 * Decisions.md 30.6.
 */
const SMTP = { host: 'smtp.example.com', port: 587, username: 'sales@example.com', password: 'smtp_super_secret_pw', secure: false };

const senderBody = (overrides: Record<string, unknown> = {}) => ({
  fromAddress: `sales+${Math.random().toString(36).slice(2, 8)}@example.com`,
  displayName: 'Acme Sales',
  replyTo: 'replies@example.com',
  smtp: SMTP,
  ...overrides,
});

const templateBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Spring offer ${Math.random().toString(36).slice(2, 8)}`,
  subject: 'A spring offer for {{1}}',
  htmlBody: '<p>Hi {{1}}, pay here: {{2}}</p>',
  textBody: 'Hi {{1}}, pay here: {{2}}',
  bindings: [
    { placeholder: 1, source: 'CONTACT_FIELD', value: 'name' },
    { placeholder: 2, source: 'RUNTIME', value: 'payment_link' },
  ],
  ...overrides,
});

describe('Email senders and templates (/email/senders, /email/templates)', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['email'] });
  });

  const k = () => bearer(ws.key);
  const paths = (res: Res) => (res.body.issues as Array<{ path: string }>).map((i) => i.path);

  it('adds a mailbox (the first is the default), lists, reads and changes it; SMTP credentials are sealed and never returned', async () => {
    const body = senderBody({ fromAddress: 'Sales@Example.com' });
    const created = await t.http.post('/email/senders').set(k()).send(body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      fromAddress: 'sales@example.com',
      displayName: 'Acme Sales',
      replyTo: 'replies@example.com',
      isDefault: true,
      hasCredentials: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id as string;
    const listed = await t.http.get('/email/senders').set(k());
    expect(listed.body).toEqual({ senders: [created.body] });
    for (const res of [created, listed, await t.http.get(`/email/senders/${id}`).set(k())]) expect(JSON.stringify(res.body)).not.toContain('super_secret');

    const [row] = await t.dataSource.query(`SELECT * FROM email_senders WHERE id = $1`, [id]);
    expect(JSON.stringify(row)).not.toContain('super_secret');
    expect(row.credentials_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await t.get(EmailSenderRepository).revealCredentials(ws.workspaceId, id)).toEqual(SMTP);

    const second = await t.http.post('/email/senders').set(k()).send(senderBody({ replyTo: null, isDefault: true }));
    expect(second.body).toMatchObject({ isDefault: true, replyTo: null });
    expect((await t.http.get(`/email/senders/${id}`).set(k())).body.isDefault).toBe(false);

    const patched = await t.http.patch(`/email/senders/${id}`).set(k()).send({ displayName: 'Acme', replyTo: null, smtp: { ...SMTP, password: 'rotated_pw' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ displayName: 'Acme', replyTo: null, isDefault: false });
    expect((await t.get(EmailSenderRepository).revealCredentials(ws.workspaceId, id))?.password).toBe('rotated_pw');
    expectError(await t.http.patch(`/email/senders/${second.body.id}`).set(k()).send({ isDefault: false }), 400, 'invalid_request');
    expectError(await t.http.patch(`/email/senders/${id}`).set(k()).send({}), 400, 'no_fields_to_update');

    expect((await t.http.delete(`/email/senders/${second.body.id}`).set(k())).status).toBe(204);
    expect((await t.http.get(`/email/senders/${id}`).set(k())).body.isDefault).toBe(true);
    expectError(await t.http.get(`/email/senders/${second.body.id}`).set(k()), 404, 'not_found');
  });

  it('refuses bad mailboxes (invalid_body; invalid_request for an address added twice) and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ fromAddress: 'not-an-address' }, 'fromAddress'],
      [{ fromAddress: `${'a'.repeat(250)}@example.com` }, 'fromAddress'],
      [{ displayName: '' }, 'displayName'],
      [{ displayName: 'x'.repeat(101) }, 'displayName'],
      [{ replyTo: 'nope' }, 'replyTo'],
      [{ smtp: undefined }, 'smtp'],
      [{ smtp: { ...SMTP, port: 0 } }, 'smtp.port'],
      [{ smtp: { ...SMTP, port: 65536 } }, 'smtp.port'],
      [{ smtp: { ...SMTP, port: 58.5 } }, 'smtp.port'],
      [{ smtp: { ...SMTP, password: '' } }, 'smtp.password'],
      [{ smtp: { ...SMTP, host: 'x'.repeat(254) } }, 'smtp.host'],
      [{ smtp: { ...SMTP, secure: 'yes' } }, 'smtp.secure'],
      [{ verified: true }, 'verified'],
    ];
    for (const [overrides, path] of cases) {
      const res = await t.http.post('/email/senders').set(k()).send(senderBody(overrides));
      expectError(res, 400, 'invalid_body');
      expect({ overrides, paths: paths(res) }).toEqual({ overrides, paths: expect.arrayContaining([path]) });
    }
    expect(await count(t, 'email_senders')).toBe(0);
    const body = senderBody();
    expect((await t.http.post('/email/senders').set(k()).send(body)).status).toBe(201);
    expectError(await t.http.post('/email/senders').set(k()).send({ ...body, fromAddress: body.fromAddress.toUpperCase() }), 400, 'invalid_request');
    expect(await count(t, 'email_senders')).toBe(1);
  });

  it('templates: create (first is the default), list, read, change, delete; bindings checked over subject and bodies', async () => {
    const body = templateBody();
    const created = await t.http.post('/email/templates').set(k()).send(body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), ...body, isDefault: true, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const id = created.body.id as string;
    expect((await t.http.get('/email/templates').set(k())).body).toEqual({ templates: [created.body] });
    expect((await t.http.get(`/email/templates/${id}`).set(k())).body).toEqual(created.body);

    const textOnly = await t.http.post('/email/templates').set(k()).send(templateBody({ htmlBody: null, textBody: 'Plain {{1}} {{2}}' }));
    expect(textOnly.body).toMatchObject({ htmlBody: null, isDefault: false });
    expectError(await t.http.post('/email/templates').set(k()).send(templateBody({ name: body.name.toUpperCase() })), 409, 'name_taken');

    const changed = await t.http.patch(`/email/templates/${id}`).set(k()).send({ subject: 'Hello {{1}}', htmlBody: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ subject: 'Hello {{1}}', htmlBody: null, textBody: body.textBody });
    const none = await t.http.patch(`/email/templates/${id}`).set(k()).send({ textBody: null });
    expectError(none, 400, 'invalid_body');
    expect(paths(none)).toContain('textBody');
    expectError(await t.http.patch(`/email/templates/${id}`).set(k()).send({}), 400, 'no_fields_to_update');
    expect((await t.http.patch(`/email/templates/${textOnly.body.id}`).set(k()).send({ isDefault: true })).body.isDefault).toBe(true);
    expect((await t.http.get(`/email/templates/${id}`).set(k())).body.isDefault).toBe(false);

    expect((await t.http.delete(`/email/templates/${textOnly.body.id}`).set(k())).status).toBe(204);
    expect((await t.http.get(`/email/templates/${id}`).set(k())).body.isDefault).toBe(true);
    for (const res of [
      await t.http.get(`/email/templates/${textOnly.body.id}`).set(k()),
      await t.http.patch(`/email/templates/${textOnly.body.id}`).set(k()).send({ name: 'x' }),
      await t.http.delete(`/email/templates/${textOnly.body.id}`).set(k()),
    ]) {
      expectError(res, 404, 'template_not_found');
    }
  });

  it('refuses bad templates with invalid_body and the path; nothing written', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ htmlBody: null, textBody: null }, 'textBody'],
      [{ subject: 'For {{1}} {{4}}' }, 'subject'],
      [{ bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] }, 'bindings'],
      [{ subject: '' }, 'subject'],
      [{ subject: 'x'.repeat(201) }, 'subject'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ textBody: 'x'.repeat(50_001) }, 'textBody'],
      [{ htmlBody: '' }, 'htmlBody'],
      [{ bindings: [{ placeholder: 21, source: 'CONSTANT', value: 'a' }] }, 'bindings.0.placeholder'],
    ];
    for (const [overrides, path] of cases) {
      const res = await t.http.post('/email/templates').set(k()).send(templateBody(overrides));
      expectError(res, 400, 'invalid_body');
      expect({ overrides, paths: paths(res) }).toEqual({ overrides, paths: expect.arrayContaining([path]) });
    }
    expect(await count(t, 'email_templates')).toBe(0);
  });

  it("another workspace's key is 404 (not_found, template_not_found); the email feature off is 403 feature_not_available", async () => {
    const sender = (await t.http.post('/email/senders').set(k()).send(senderBody())).body;
    const template = (await t.http.post('/email/templates').set(k()).send(templateBody())).body;
    const other = await t.seed({ features: ['email'] });
    const o = bearer(other.key);
    expect((await t.http.get('/email/senders').set(o)).body).toEqual({ senders: [] });
    expectError(await t.http.get(`/email/senders/${sender.id}`).set(o), 404, 'not_found');
    expectError(await t.http.patch(`/email/senders/${sender.id}`).set(o).send({ displayName: 'mine' }), 404, 'not_found');
    expectError(await t.http.delete(`/email/senders/${sender.id}`).set(o), 404, 'not_found');
    expectError(await t.http.get(`/email/templates/${template.id}`).set(o), 404, 'template_not_found');
    expectError(await t.http.delete(`/email/templates/${template.id}`).set(o), 404, 'template_not_found');

    const off = bearer((await t.seed({ features: ['whatsapp'] })).key);
    for (const res of [
      await t.http.get('/email/senders').set(off),
      await t.http.post('/email/senders').set(off).send(senderBody()),
      await t.http.get('/email/templates').set(off),
      await t.http.post('/email/templates').set(off).send(templateBody()),
      await t.http.delete(`/email/templates/${template.id}`).set(off),
    ]) {
      expectError(res, 403, 'feature_not_available');
    }
    expect([await count(t, 'email_senders'), await count(t, 'email_templates')]).toEqual([1, 1]);
  });
});
