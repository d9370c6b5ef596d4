import { AppConfig, AppError, FixedClock } from '@outreach/core';
import { ScriptedLlm } from '../../../assist/src/testing';
import { codeOf, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import '../knowledge.errors';
import { FakeIngestQueue, InMemoryChatbotRepository, InMemoryDocumentFiles, InMemoryDocumentRepository } from '../testing';
import { Chatbots } from './chatbots';
import { Documents } from './documents';
import { KnowledgeBases } from './knowledge-bases';
import { KnowledgeQueue } from './knowledge-jobs';
import type { KnowledgeBaseRepository } from './knowledge.ports';

const W = '11111111-1111-4111-8111-111111111111';
const config = { documentMaxBytes: 100, knowledgeEmbeddings: false } as AppConfig;

function setup() {
  const documents = new InMemoryDocumentRepository();
  const files = new InMemoryDocumentFiles();
  const queue = new FakeIngestQueue();
  const outbox = new RecordingOutbox();
  const uow = new RollbackUnitOfWork();
  const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
  return { documents, files, queue, outbox, docs: new Documents(documents, files, queue, outbox, uow, config, clock) };
}
const file = (text: string, fileName = 'a.txt') => ({ buffer: Buffer.from(text), fileName, mimeType: 'text/plain' });

describe('Documents (use cases over in-memory ports)', () => {
  it('create → upload → provision writes the ingestion job once', async () => {
    const { docs, files, outbox } = setup();
    const doc = await docs.create(W, { fileName: 'faq.md' });
    const up = await docs.upload(W, doc.id, file('# FAQ', 'faq.md'));
    expect(files.files.get(up.externalId!)).toEqual(Buffer.from('# FAQ'));
    expect((await docs.provision(W, doc.id)).status).toBe('PROCESSING');
    expect((await docs.provision(W, doc.id)).status).toBe('PROCESSING');
    expect(outbox.named(KnowledgeQueue.Knowledge, 'ingest')).toEqual([
      { queue: 'knowledge', name: 'ingest', payload: { documentId: doc.id }, jobId: `ingest-${doc.id}-${new Date('2026-11-25T10:00:00Z').getTime()}` },
    ]);
  });

  it('refusals change nothing: size, emptiness, type, the store, the queue', async () => {
    const { docs, files, queue, outbox, documents } = setup();
    const doc = await docs.create(W, { fileName: 'a.txt' });
    expect(await codeOf(docs.provision(W, doc.id))).toEqual({ code: 'no_external_id' });
    expect(await codeOf(docs.upload(W, doc.id, file('x'.repeat(101))))).toEqual({ code: 'document_too_large' });
    expect(await codeOf(docs.upload(W, doc.id, file('  \n')))).toEqual({ code: 'empty_document' });
    expect(await codeOf(docs.upload(W, doc.id, { ...file('x', 'x.png'), mimeType: 'image/png' }))).toEqual({ code: 'unsupported_document_type' });
    files.failure = new AppError('document_storage_unavailable');
    expect(await codeOf(docs.upload(W, doc.id, file('hello')))).toEqual({ code: 'document_storage_unavailable' });
    expect(documents.rows.get(doc.id)).toMatchObject({ status: 'AWAITING_UPLOAD', externalId: null });
    files.failure = null;
    await docs.upload(W, doc.id, file('hello'));
    queue.up = false;
    expect(await codeOf(docs.provision(W, doc.id))).toEqual({ code: 'document_ingest_unavailable' });
    expect(documents.rows.get(doc.id)?.status).toBe('UPLOADED');
    expect(outbox.jobs).toEqual([]);
    expect(await codeOf(docs.get('22222222-2222-4222-8222-222222222222', doc.id))).toEqual({ code: 'document_not_found' });
  });
});

describe('Chatbots (use cases over in-memory ports)', () => {
  const noBases = {} as KnowledgeBaseRepository;
  const make = (answer: string | Error = 'An answer.') => {
    const bots = new InMemoryChatbotRepository();
    const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
    const bases = new KnowledgeBases(noBases, new InMemoryDocumentRepository(), new ScriptedLlm(''), config, new RollbackUnitOfWork(), clock);
    return { bots, chatbots: new Chatbots(bots, bases, new ScriptedLlm(answer), new RollbackUnitOfWork(), clock) };
  };

  it('a rotation from a stale version is rotation_conflict; the winner moves the version on', async () => {
    const { chatbots, bots } = make();
    const bot = await chatbots.create(W, { name: 'Bot' });
    const first = await chatbots.rotateEmbedKey(W, bot.id, 1);
    expect(first.embedKeyVersion).toBe(2);
    expect(first.embedKey).not.toBe(bot.embedKey);
    expect(await codeOf(chatbots.rotateEmbedKey(W, bot.id, 1))).toEqual({ code: 'rotation_conflict' });
    expect(bots.rows.get(bot.id)?.embedKey).toBe(first.embedKey);
    expect(await codeOf(chatbots.askByEmbedKey(bot.embedKey, { message: 'hi' }))).toEqual({ code: 'chatbot_not_found' });
  });

  it('asks: blank → empty_message, unknown session → session_not_found, a failing model → chat_failed and nothing stored', async () => {
    const ok = make();
    const bot = await ok.chatbots.create(W, { name: 'Bot' });
    expect(await codeOf(ok.chatbots.ask(W, bot.id, { message: ' ' }))).toEqual({ code: 'empty_message' });
    expect(await codeOf(ok.chatbots.ask(W, bot.id, { message: 'hi', sessionId: '33333333-3333-4333-8333-333333333333' }))).toEqual({ code: 'session_not_found' });
    const answered = await ok.chatbots.ask(W, bot.id, { message: 'hi' });
    expect(answered).toMatchObject({ answer: 'An answer.', sources: [] });
    expect(ok.bots.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    const failing = make(new (class extends Error {})('x'));
    const other = await failing.chatbots.create(W, { name: 'Bot' });
    await expect(failing.chatbots.ask(W, other.id, { message: 'hi' })).rejects.toThrow();
    expect(failing.bots.messages).toEqual([]);
  });
});
