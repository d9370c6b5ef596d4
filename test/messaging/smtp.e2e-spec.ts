import { randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { hubSignature, OptOuts, SendMessage } from '@outreach/messaging';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { WorkerApp } from '../support/worker-app';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { credit, expectError } from '../campaigns/campaign-helpers';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';

/*
 * Issue 12 item 7 (email half): the SMTP adapter (nodemailer) against a real SMTP server started
 * here on loopback (smtp-server), picked by a mailbox whose credentials say provider SMTP. The
 * received MIME is parsed (mailparser) and checked; its List-Unsubscribe link, followed, records an
 * opt-out. Decisions.md 30.19.
 */
describe('SMTP adapter against a loopback SMTP server', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let server: SMTPServer;
  let port: number;
  let ws: Seeded;
  let mailbox: string;
  let template: string;
  const received: Array<{ from: string; to: string[]; mail: ParsedMail; raw: string }> = [];
  const logins: string[] = [];
  /** The next recipient reply the server gives instead of accepting (e.g. a 550). */
  let refuseNext: { code: number; text: string } | null = null;

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username}:${auth.password}`);
        if (auth.password !== 'smtp-pass') return callback(new Error('535 bad credentials'));
        callback(null, { user: auth.username });
      },
      onRcptTo(_address, _session, callback) {
        const refusal = refuseNext;
        refuseNext = null;
        if (!refusal) return callback();
        const error = new Error(refusal.text) as Error & { responseCode: number };
        error.responseCode = refusal.code;
        callback(error);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          void simpleParser(raw).then((mail) => {
            received.push({ from: (session.envelope.mailFrom as { address: string }).address, to: session.envelope.rcptTo.map((r) => r.address), mail, raw });
            callback();
          }, callback);
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
    t = await TestApp.create();
    worker = await WorkerApp.create({ root: WorkerModule });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(async () => {
    await t.reset();
    received.length = 0;
    logins.length = 0;
    ws = await t.seed({ features: ['email'] });
    await credit(t, ws.workspaceId);
    const m = await t.http
      .post('/email/senders')
      .set(bearer(ws.key))
      .send({
        fromAddress: 'sales@acme.example',
        displayName: 'Acme Sales',
        replyTo: 'replies@acme.example',
        smtp: { host: '127.0.0.1', port, username: 'sales@acme.example', password: 'smtp-pass', secure: false, provider: 'SMTP' },
      });
    expect(m.status).toBe(201);
    mailbox = m.body.id;
    const tp = await t.http
      .post('/email/templates')
      .set(bearer(ws.key))
      .send({
        name: 'Offer',
        subject: 'An offer for {{1}}',
        htmlBody: '<p>Hi {{1}}, see {{2}}</p>',
        textBody: 'Hi {{1}}, see {{2}}',
        bindings: [
          { placeholder: 1, source: 'CONTACT_FIELD', value: 'name' },
          { placeholder: 2, source: 'CONSTANT', value: 'https://acme.example/offer' },
        ],
      });
    template = tp.body.id;
  });

  const send = (to: string) =>
    t.get(SendMessage).send({
      workspaceId: ws.workspaceId,
      channel: 'EMAIL',
      senderId: mailbox,
      templateId: template,
      to,
      variables: { contact: { name: 'Ada <3' } },
      idempotencyKey: `attempt-${randomUUID()}`,
    });

  it('delivers the MIME the template describes: From with display name, Reply-To, Subject, text + HTML, Message-ID, List-Unsubscribe; the link opts out', async () => {
    const sent = await send('Ada@Example.org');
    expect(sent.outcome).toBe('sent');
    expect(received).toHaveLength(1);
    const [{ from, to, mail, raw }] = received;
    expect({ from, to }).toEqual({ from: 'sales@acme.example', to: ['ada@example.org'] });
    expect(logins).toEqual(['sales@acme.example:smtp-pass']);
    expect(mail.from?.value).toEqual([{ name: 'Acme Sales', address: 'sales@acme.example' }]);
    expect(mail.replyTo?.value).toEqual([{ name: '', address: 'replies@acme.example' }]);
    expect(mail.subject).toBe('An offer for Ada <3');
    expect(mail.text?.trim()).toBe('Hi Ada <3, see https://acme.example/offer');
    expect(mail.html).toContain('<p>Hi Ada &lt;3, see https://acme.example/offer</p>');
    expect(mail.messageId).toBe(`<${sent.message.id}@acme.example>`);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);

    const [{ provider_message_id: providerId, provider }] = await t.dataSource.query(`SELECT provider, provider_message_id FROM messages WHERE id = $1`, [sent.message.id]);
    expect({ provider, providerId }).toEqual({ provider: 'smtp', providerId: `<${sent.message.id}@acme.example>` });

    // List-Unsubscribe: <https://…/webhooks/email/unsubscribe/<token>> — the recipient's own link.
    const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
    const url = /^List-Unsubscribe: <([^>]+)>/m.exec(unfolded)?.[1];
    expect(url).toMatch(new RegExp(`^${t.config.publicBaseUrl}/webhooks/email/unsubscribe/`));
    const followed = await t.http.get(new URL(url as string).pathname);
    expect(followed.body).toEqual({ unsubscribed: true, channel: 'EMAIL' });
    expect(await t.get(OptOuts).isOptedOut(ws.workspaceId, 'EMAIL', 'ada@example.org')).toBe(true);
    const refused = await send('ada@example.org').catch((e: { status: number; code: string }) => e);
    expect(refused).toMatchObject({ status: 409, code: 'contact_opted_out' });
    expect(received).toHaveLength(1);
  });

  it('a permanent refusal (550) fails the message unbilled; a temporary one (451) leaves it QUEUED for a retry', async () => {
    refuseNext = { code: 550, text: '550 5.1.1 no such user' };
    const failed = await send('nobody@example.org');
    expect(failed.outcome).toBe('failed');
    const [row] = await t.dataSource.query(`SELECT status, failure_reason FROM messages WHERE id = $1`, [failed.message.id]);
    expect(row).toMatchObject({ status: 'FAILED', failure_reason: expect.stringContaining('550') });

    refuseNext = { code: 451, text: '451 4.3.0 try again later' };
    const later = await send('busy@example.org');
    expect(later.outcome).toBe('retry_later');
    const billed = await t.dataSource.query(`SELECT 1 FROM ledger_entries WHERE kind = 'debit'`);
    expect(billed).toEqual([]);
    expect(received).toHaveLength(0);
  });

  it('the email webhook of an SMTP mailbox finds its messages by their Message-ID', async () => {
    const sent = await send('eve@example.org');
    const raw = JSON.stringify({ events: [{ id: `evt-${randomUUID()}`, type: 'complaint', messageId: `<${sent.message.id}@acme.example>`, timestamp: new Date().toISOString() }] });
    expectError(await t.http.post(`/webhooks/email/${mailbox}`).set('Content-Type', 'application/json').send(raw), 401, 'unauthorized');
    const res = await t.http.post(`/webhooks/email/${mailbox}`).set('Content-Type', 'application/json').set('X-Hub-Signature-256', hubSignature(t.config.emailWebhookSecret, raw)).send(raw);
    expect(res.body).toEqual({ received: 1 });
    await waitFor('the complaint opt-out, applied by the worker', () => t.get(OptOuts).isOptedOut(ws.workspaceId, 'EMAIL', 'eve@example.org'), 15_000);
  });
});
