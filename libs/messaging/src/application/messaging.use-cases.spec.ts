import { Logger } from '@nestjs/common';
import { FixedClock, RecordingOutbox, RollbackUnitOfWork, codeOf, jobsRollback } from '../../../platform/src/testing';
import { InMemoryWhatsappSenderRepository, InMemoryWhatsappTemplateRepository, RecordingWhatsappProvider } from '../testing';
import { MessagingJob, MessagingQueue } from './messaging-jobs';
import { WhatsappSenders } from './whatsapp-senders';
import { WhatsappTemplates } from './whatsapp-templates';

/* The WhatsApp use cases over in-memory ports: the outbox job per change, idempotent jobs, defaults. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const T0 = new Date('2026-11-25T10:00:00Z');
const CREDENTIALS = { accessToken: 'EAAG-secret', phoneNumberId: '1065', businessAccountId: '1022' };

describe('WhatsappSenders', () => {
  beforeAll(() => Logger.overrideLogger(false));

  let repo: InMemoryWhatsappSenderRepository;
  let provider: RecordingWhatsappProvider;
  let outbox: RecordingOutbox;
  let senders: WhatsappSenders;
  const clock = new FixedClock(T0);

  beforeEach(() => {
    repo = new InMemoryWhatsappSenderRepository();
    provider = new RecordingWhatsappProvider();
    outbox = new RecordingOutbox();
    senders = new WhatsappSenders(repo, provider, new RollbackUnitOfWork([repo, jobsRollback(outbox)]), outbox, clock);
  });

  it('connects a number CONNECTING with one verification job; the job asks the provider with the credentials, once', async () => {
    const view = await senders.connectOwn(W1, { phoneNumber: '+14155550123', credentials: CREDENTIALS });
    expect(view).toEqual({
      id: view.id,
      mode: 'DEDICATED',
      status: 'CONNECTING',
      numberSource: 'OWN_NUMBER',
      isDefault: true,
      phoneDisplay: '+14155550123',
      hasCredentials: true,
      connectedAt: null,
      verifiedName: null,
      qualityRating: null,
    });
    expect(outbox.named(MessagingQueue.Messaging, MessagingJob.VerifySender).map((j) => j.payload)).toEqual([{ senderId: view.id }]);
    await senders.verify(view.id);
    await senders.verify(view.id);
    expect(provider.verifications).toEqual([{ senderId: view.id, e164: '+14155550123', credentials: CREDENTIALS }]);
    expect(await senders.get(W1, view.id)).toMatchObject({ status: 'CONNECTED', verifiedName: 'Acme', qualityRating: 'GREEN', connectedAt: T0.toISOString() });
  });

  it('keeps one default: the first sender, or the one asked for; deleting the default promotes the oldest other', async () => {
    const a = await senders.connectOwn(W1, { phoneNumber: '+14155550121', credentials: CREDENTIALS });
    const b = await senders.addPlatformShared({ workspaceId: W1, e164: '+14155550122' });
    expect([a.isDefault, b.isDefault]).toEqual([true, false]);
    await senders.update(W1, b.id, { isDefault: true });
    expect((await senders.list(W1)).map((s) => s.isDefault)).toEqual([false, true]);
    await senders.remove(W1, b.id);
    expect((await senders.list(W1)).map((s) => [s.id, s.isDefault])).toEqual([[a.id, true]]);
  });

  it('another workspace’s sender is not_found; a duplicate number is refused and leaves no job', async () => {
    const a = await senders.connectOwn(W1, { phoneNumber: '+14155550121', credentials: CREDENTIALS });
    expect(await codeOf(senders.get(W2, a.id))).toEqual({ code: 'not_found' });
    expect(await codeOf(senders.remove(W2, a.id))).toEqual({ code: 'not_found' });
    expect(await codeOf(senders.connectOwn(W1, { phoneNumber: '+14155550121', credentials: CREDENTIALS }))).toEqual({ code: 'invalid_request' });
    expect(outbox.jobs).toHaveLength(1);
    expect(repo.rows.size).toBe(1);
  });

  it('the operator’s shared sender: bad input is invalid_request', async () => {
    expect(await codeOf(senders.addPlatformShared({ workspaceId: 'nope', e164: '+14155550122' }))).toEqual({ code: 'invalid_request' });
    expect(await codeOf(senders.addPlatformShared({ workspaceId: W1, e164: '4155550122' }))).toEqual({ code: 'invalid_request' });
    expect(repo.rows.size).toBe(0);
  });
});

describe('WhatsappTemplates', () => {
  beforeAll(() => Logger.overrideLogger(false));

  let repo: InMemoryWhatsappTemplateRepository;
  let provider: RecordingWhatsappProvider;
  let outbox: RecordingOutbox;
  let templates: WhatsappTemplates;
  const clock = new FixedClock(T0);
  const fields = { name: 'order_update', language: 'en_US', category: 'UTILITY' as const, body: 'Hi {{1}}', footer: null, bindings: [{ placeholder: 1, source: 'CONTACT_FIELD' as const, value: 'name' }] };

  beforeEach(() => {
    repo = new InMemoryWhatsappTemplateRepository();
    provider = new RecordingWhatsappProvider();
    outbox = new RecordingOutbox();
    templates = new WhatsappTemplates(repo, provider, new RollbackUnitOfWork([jobsRollback(outbox)]), outbox, clock);
  });

  it('submit writes one review job; the job applies the provider’s verdict once', async () => {
    const t = await templates.create(W1, fields);
    expect((await templates.submit(W1, t.id)).status).toBe('PENDING');
    expect((await templates.submit(W1, t.id)).status).toBe('PENDING');
    expect(outbox.named(MessagingQueue.Messaging, MessagingJob.ReviewTemplate)).toHaveLength(1);
    provider.review = { status: 'REJECTED', reason: 'no' };
    await templates.review(t.id);
    await templates.review(t.id);
    expect(provider.reviews).toHaveLength(1);
    expect(await templates.get(W1, t.id)).toMatchObject({ status: 'REJECTED', rejectionReason: 'no' });
  });

  it('a review the provider has not decided leaves the template PENDING', async () => {
    const t = await templates.create(W1, fields);
    await templates.submit(W1, t.id);
    provider.review = { status: 'PENDING' };
    await templates.review(t.id);
    expect((await templates.get(W1, t.id)).status).toBe('PENDING');
  });

  it('unknown or foreign ids are template_not_found; an empty PATCH is no_fields_to_update', async () => {
    const t = await templates.create(W1, fields);
    expect(await codeOf(templates.get(W2, t.id))).toEqual({ code: 'template_not_found' });
    expect(await codeOf(templates.submit(W2, t.id))).toEqual({ code: 'template_not_found' });
    expect(await codeOf(templates.update(W1, t.id, {}))).toEqual({ code: 'no_fields_to_update' });
  });
});
