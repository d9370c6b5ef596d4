import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompileAgentPrompt } from '@outreach/agents';
import { LocalFileStore, S3FileStore } from '@outreach/files';
import { DOCUMENT_FILE_STORE, IngestDocument } from '@outreach/knowledge';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { pdfWithPages } from '../assist/pdf-fixture';
import { expectError } from '../campaigns/campaign-helpers';
import { waitFor } from '../engine/engine-harness';
import { StubS3Server } from '../exports/stub-s3-server';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { docxWithParagraphs, SwitchableFileStore } from './knowledge-fixtures';

/*
 * Issue 18, items 4–6 (decisions.md 39): documents in two steps (create, upload, provision), their
 * ingestion by the worker and full-text retrieval; knowledge bases; agents' knowledgeDocIds;
 * chatbots answering from knowledge bases with a rotatable embed key; dictionaries. Every code of
 * the knowledge module is provoked here (document_ingest_unavailable: knowledge-queue-outage.e2e-spec.ts).
 */
const documentDir = mkdtempSync(join(tmpdir(), 'documents-e2e-'));
process.env.DOCUMENT_DIR = documentDir;
process.env.DOCUMENT_MAX_BYTES = String(3 * 1024 * 1024);
const local = new LocalFileStore(documentDir);
const store = new SwitchableFileStore(local);

const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.';
const NEEDLE = 'The Zephyr heat pump carries a twelve year warranty on its compressor.';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('knowledge: documents, knowledge bases, chatbots, dictionaries (issue 18 items 4–6)', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(DOCUMENT_FILE_STORE).useValue(store) });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(documentDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.reset();
    store.target = local;
    ws = await t.seed({ features: ['knowledge'] });
  });

  const createDoc = (fileName: string, name?: string, key = ws.key) => t.http.post('/documents').set(bearer(key)).send({ fileName, ...(name ? { name } : {}) });
  const uploadFile = (id: string, body: Buffer | string, fileName: string, contentType = 'text/plain') =>
    t.http.put(`/documents/${id}/file`).set(bearer(ws.key)).attach('file', Buffer.from(body), { filename: fileName, contentType });
  const provision = (id: string) => t.http.post(`/documents/${id}/provision`).set(bearer(ws.key));
  const getDoc = async (id: string) => (await t.http.get(`/documents/${id}`).set(bearer(ws.key))).body;
  const outboxJobs = async () => (await t.dataSource.query(`SELECT job_id FROM outbox WHERE queue = 'knowledge' ORDER BY created_at`)) as Array<{ job_id: string }>;

  /** A READY text document (ingested in-process: what the worker's job does). */
  async function readyDoc(text: string, fileName = 'notes.txt'): Promise<string> {
    const id = (await createDoc(fileName)).body.id as string;
    expect((await uploadFile(id, text, fileName)).status).toBe(200);
    expect((await provision(id)).status).toBe(202);
    await t.get(IngestDocument).execute({ documentId: id });
    expect((await getDoc(id)).status).toBe('READY');
    return id;
  }

  describe('documents', () => {
    it('a 2 MB PDF goes create → upload → provision → the worker ingests it → a query finds the right chunk', async () => {
      const pages = Array.from({ length: 420 }, (_, i) => Array.from({ length: 38 }, (_, j) => (i === 277 && j === 20 ? NEEDLE : `${FILLER} (${i}.${j})`)));
      const pdf = pdfWithPages(pages);
      expect(pdf.length).toBeGreaterThan(2 * 1024 * 1024);

      const created = await createDoc('catalogue.pdf', 'Product catalogue');
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Product catalogue', fileName: 'catalogue.pdf', type: 'pdf', status: 'AWAITING_UPLOAD', externalId: null, sizeBytes: null });
      const id = created.body.id as string;

      const up = await uploadFile(id, pdf, 'catalogue.pdf', 'application/pdf');
      expect(up.status).toBe(200);
      expect(up.body).toMatchObject({ status: 'UPLOADED', sizeBytes: pdf.length, type: 'pdf' });
      expect(existsSync(join(documentDir, up.body.externalId))).toBe(true);

      const prov = await provision(id);
      expect(prov.status).toBe(202);
      expect(prov.body.status).toBe('PROCESSING');
      expect(await outboxJobs()).toHaveLength(1);
      // Provisioning again while PROCESSING queues nothing more.
      expect((await provision(id)).body.status).toBe('PROCESSING');
      expect(await outboxJobs()).toHaveLength(1);

      const worker = await WorkerApp.create({ root: WorkerModule });
      try {
        // Polled as a client would: a 503 database_unavailable (the 700 ms query timeout on a loaded
        // machine, while the worker writes a thousand chunks) is retried, not taken for the answer.
        const polled = await waitFor(
          `document ${id} ingested`,
          async () => await t.http.get(`/documents/${id}`).set(bearer(ws.key)),
          (res) => res.status !== 503 && res.body.status !== 'PROCESSING',
          120_000,
        );
        expect(polled.status).toBe(200);
        const done = polled.body;
        expect(done).toMatchObject({ status: 'READY', error: null });
        expect(done.chunkCount).toBeGreaterThan(1000);
      } finally {
        await worker.close();
      }
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM knowledge_chunks WHERE document_id = $1`, [id]);
      expect(n).toBe((await getDoc(id)).chunkCount);

      const kb = await t.http.post('/knowledge-bases').set(bearer(ws.key)).send({ name: 'Products', documentIds: [id] });
      expect(kb.status).toBe(201);
      const q = await t.http.post(`/knowledge-bases/${kb.body.id}/query`).set(bearer(ws.key)).send({ query: 'How long is the warranty of the Zephyr heat pump?', limit: 3 });
      expect(q.status).toBe(200);
      expect(q.body.passages[0].content).toContain(NEEDLE);
      expect(q.body.passages[0]).toMatchObject({ documentId: id, documentName: 'Product catalogue' });
      // The limit takes effect.
      const one = await t.http.post(`/knowledge-bases/${kb.body.id}/query`).set(bearer(ws.key)).send({ query: 'lorem ipsum', limit: 1 });
      expect(one.body.passages).toHaveLength(1);
    }, 180_000);

    it('TXT, Markdown and DOCX are read; a damaged or textless file FAILS its ingestion', async () => {
      const md = await readyDoc('# Returns\n\nRefunds are paid within **14 days** of the parcel reaching us.', 'returns.md');
      const docxId = (await createDoc('handbook.docx')).body.id;
      const docx = await docxWithParagraphs(['Office hours', 'Our support desk answers from 8am to 6pm on weekdays.']);
      expect((await uploadFile(docxId, docx, 'handbook.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).status).toBe(200);
      await provision(docxId);
      await t.get(IngestDocument).execute({ documentId: docxId });
      expect(await getDoc(docxId)).toMatchObject({ status: 'READY', chunkCount: 1 });
      const kb = await t.http.post('/knowledge-bases').set(bearer(ws.key)).send({ name: 'Help', documentIds: [md, docxId] });
      const q = await t.http.post(`/knowledge-bases/${kb.body.id}/query`).set(bearer(ws.key)).send({ query: 'When does support answer?' });
      expect(q.body.passages[0]).toMatchObject({ documentId: docxId });
      expect(q.body.passages[0].content).toContain('8am to 6pm');

      const broken = (await createDoc('broken.pdf')).body.id;
      await uploadFile(broken, 'this is not a PDF at all', 'broken.pdf', 'application/pdf');
      await provision(broken);
      await t.get(IngestDocument).execute({ documentId: broken });
      expect(await getDoc(broken)).toMatchObject({ status: 'FAILED', chunkCount: 0, error: 'unreadable PDF file' });
      const blank = (await createDoc('blank.pdf')).body.id;
      await uploadFile(blank, pdfWithPages([[]]), 'blank.pdf', 'application/pdf');
      await provision(blank);
      await t.get(IngestDocument).execute({ documentId: blank });
      expect((await getDoc(blank)).error).toMatch(/^empty_document/);
      // A FAILED document may be provisioned again (a new job).
      expect((await provision(blank)).body.status).toBe('PROCESSING');
    });

    it('415 unsupported_document_type, 413 document_too_large, 400 empty_document, 400 no_external_id, 404 document_not_found — nothing changes', async () => {
      expectError(await createDoc('virus.exe'), 415, 'unsupported_document_type');
      expect((await t.http.get('/documents').set(bearer(ws.key))).body.documents).toEqual([]);

      const id = (await createDoc('notes.txt')).body.id;
      expectError(await provision(id), 400, 'no_external_id');
      expectError(await uploadFile(id, 'an image', 'photo.png', 'image/png'), 415, 'unsupported_document_type');
      expectError(await uploadFile(id, Buffer.alloc(3 * 1024 * 1024 + 1, 'a'), 'big.txt'), 413, 'document_too_large');
      expectError(await uploadFile(id, '', 'empty.txt'), 400, 'empty_document');
      expectError(await uploadFile(id, ' \n\t \n', 'blank.txt'), 400, 'empty_document');
      expect(await getDoc(id)).toMatchObject({ status: 'AWAITING_UPLOAD', externalId: null, sizeBytes: null });
      expect(await outboxJobs()).toEqual([]);

      // Just under the limit is accepted (the limit is DOCUMENT_MAX_BYTES, not UPLOAD_MAX_BYTES).
      expect((await uploadFile(id, Buffer.alloc(3 * 1024 * 1024, 'a'), 'big.txt')).status).toBe(200);

      const other = await t.seed({ features: ['knowledge'] });
      expectError(await t.http.get(`/documents/${id}`).set(bearer(other.key)), 404, 'document_not_found');
      expectError(await t.http.put(`/documents/${id}/file`).set(bearer(other.key)).attach('file', Buffer.from('x'), 'x.txt'), 404, 'document_not_found');
      expectError(await t.http.get('/documents/not-a-uuid').set(bearer(ws.key)), 404, 'document_not_found');
      expectError(await t.http.delete(`/documents/${id}`).set(bearer(other.key)), 404, 'document_not_found');
      expect((await t.http.delete(`/documents/${id}`).set(bearer(ws.key))).status).toBe(204);
      expectError(await t.http.get(`/documents/${id}`).set(bearer(ws.key)), 404, 'document_not_found');
    });

    it('a replaced file is the one ingested; a provisioned document keeps its file (400 invalid_request)', async () => {
      const id = (await createDoc('faq.txt')).body.id;
      const first = (await uploadFile(id, 'First version about apples.', 'faq.txt')).body.externalId;
      const second = (await uploadFile(id, 'Second version about oranges.', 'faq.txt')).body.externalId;
      expect(second).not.toBe(first);
      expect(existsSync(join(documentDir, first))).toBe(false);
      await provision(id);
      expectError(await uploadFile(id, 'Third version.', 'faq.txt'), 400, 'invalid_request');
      await t.get(IngestDocument).execute({ documentId: id });
      const [{ content }] = await t.dataSource.query(`SELECT content FROM knowledge_chunks WHERE document_id = $1`, [id]);
      expect(content).toBe('Second version about oranges.');
    });

    it('503 document_storage_unavailable (store unreachable) and 502 document_storage_failed (store refuses): nothing recorded', async () => {
      const id = (await createDoc('notes.txt')).body.id;
      const closed = new S3FileStore({ bucket: 'docs', region: 'us-east-1', endpoint: `http://127.0.0.1:${await closedPort()}`, credentials: { accessKeyId: 'K', secretAccessKey: 's' } });
      const s3 = new StubS3Server('docs', 'K');
      await s3.start();
      const wrongBucket = new S3FileStore({ bucket: 'no-such-bucket', region: 'us-east-1', endpoint: s3.url, credentials: { accessKeyId: 'K', secretAccessKey: 's' } });
      const healthy = new S3FileStore({ bucket: 'docs', region: 'us-east-1', endpoint: s3.url, credentials: { accessKeyId: 'K', secretAccessKey: 's' } });
      try {
        store.target = closed;
        expectError(await uploadFile(id, 'Some notes.', 'notes.txt'), 503, 'document_storage_unavailable');
        store.target = wrongBucket;
        expectError(await uploadFile(id, 'Some notes.', 'notes.txt'), 502, 'document_storage_failed');
        expect(await getDoc(id)).toMatchObject({ status: 'AWAITING_UPLOAD', externalId: null });
        expect(s3.objects.size).toBe(0);
        // The same S3 adapter with a bucket that exists stores it.
        store.target = healthy;
        const ok = await uploadFile(id, 'Some notes.', 'notes.txt');
        expect(ok.status).toBe(200);
        expect(s3.objects.get(`docs/${ok.body.externalId}`) ?? s3.objects.get(ok.body.externalId)).toEqual(Buffer.from('Some notes.'));
      } finally {
        closed.destroy();
        wrongBucket.destroy();
        healthy.destroy();
        await s3.stop();
      }
    });

    it('needs the knowledge feature (403 feature_not_available) and documents.* scopes', async () => {
      const plain = await t.seed();
      expectError(await t.http.get('/documents').set(bearer(plain.key)), 403, 'feature_not_available');
      expectError(await t.http.get('/knowledge-bases').set(bearer(plain.key)), 403, 'feature_not_available');
      expectError(await t.http.get('/chatbots').set(bearer(plain.key)), 403, 'feature_not_available');
      const viewer = await t.addKey(ws.workspaceId, { scopes: ['documents.view'] });
      expect((await t.http.get('/documents').set(bearer(viewer.key))).status).toBe(200);
      expectError(await createDoc('a.txt', undefined, viewer.key), 403, 'forbidden');
    });
  });

  describe('knowledge bases', () => {
    it('group provisioned documents: 404 kb_document_not_found (docId), 400 document_not_provisioned, 404 knowledge_base_not_found', async () => {
      const ready = await readyDoc('Deliveries leave the warehouse every Tuesday.');
      const pending = (await createDoc('later.txt')).body.id;
      const missing = '00000000-0000-4000-8000-000000000000';

      const unknown = await t.http.post('/knowledge-bases').set(bearer(ws.key)).send({ name: 'KB', documentIds: [ready, missing] });
      expectError(unknown, 404, 'kb_document_not_found');
      expect(unknown.body.docId).toBe(missing);
      expectError(await t.http.post('/knowledge-bases').set(bearer(ws.key)).send({ name: 'KB', documentIds: [pending] }), 400, 'document_not_provisioned');
      expect((await t.http.get('/knowledge-bases').set(bearer(ws.key))).body.knowledgeBases).toEqual([]);

      const kb = (await t.http.post('/knowledge-bases').set(bearer(ws.key)).send({ name: 'KB', description: 'Shipping' })).body;
      const added = await t.http.post(`/knowledge-bases/${kb.id}/documents`).set(bearer(ws.key)).send({ documentId: ready });
      expect(added.status).toBe(200);
      expect(added.body.documents.map((d: { id: string }) => d.id)).toEqual([ready]);
      expectError(await t.http.post(`/knowledge-bases/${kb.id}/documents`).set(bearer(ws.key)).send({ documentId: pending }), 400, 'document_not_provisioned');
      const notIn = await t.http.delete(`/knowledge-bases/${kb.id}/documents/${pending}`).set(bearer(ws.key));
      expectError(notIn, 404, 'kb_document_not_found');
      expect(notIn.body.docId).toBe(pending);
      expect((await t.http.delete(`/knowledge-bases/${kb.id}/documents/${ready}`).set(bearer(ws.key))).body.documents).toEqual([]);

      const renamed = await t.http.patch(`/knowledge-bases/${kb.id}`).set(bearer(ws.key)).send({ name: 'Shipping KB', description: null });
      expect(renamed.body).toMatchObject({ name: 'Shipping KB', description: null });

      const other = await t.seed({ features: ['knowledge'] });
      expectError(await t.http.get(`/knowledge-bases/${kb.id}`).set(bearer(other.key)), 404, 'knowledge_base_not_found');
      expectError(await t.http.post(`/knowledge-bases/${kb.id}/query`).set(bearer(other.key)).send({ query: 'x' }), 404, 'knowledge_base_not_found');
      expectError(await t.http.delete(`/knowledge-bases/${kb.id}`).set(bearer(other.key)), 404, 'knowledge_base_not_found');
      // Another workspace's document is "not found" too.
      const foreign = await t.http.post(`/knowledge-bases/${kb.id}/documents`).set(bearer(ws.key)).send({ documentId: missing });
      expectError(foreign, 404, 'kb_document_not_found');
    });

    it('409 knowledge_base_in_use while an ACTIVE chatbot answers from it; deletable once the chatbot is DISABLED', async () => {
      const kb = (await t.http.post('/knowledge-bases').set(bearer(ws.key)).send({ name: 'KB' })).body;
      const bot = (await t.http.post('/chatbots').set(bearer(ws.key)).send({ name: 'Helper', knowledgeBaseIds: [kb.id] })).body;
      expectError(await t.http.delete(`/knowledge-bases/${kb.id}`).set(bearer(ws.key)), 409, 'knowledge_base_in_use');
      expect((await t.http.get(`/knowledge-bases/${kb.id}`).set(bearer(ws.key))).status).toBe(200);
      expect((await t.http.patch(`/chatbots/${bot.id}`).set(bearer(ws.key)).send({ status: 'DISABLED' })).body.status).toBe('DISABLED');
      expect((await t.http.delete(`/knowledge-bases/${kb.id}`).set(bearer(ws.key))).status).toBe(204);
      expect((await t.http.get(`/chatbots/${bot.id}`).set(bearer(ws.key))).body.knowledgeBaseIds).toEqual([]);
    });
  });

  describe("agents' knowledgeDocIds", () => {
    it('must be provisioned documents of the workspace, and READY ones feed the compiled prompt', async () => {
      const doc = await readyDoc('Our showroom at 12 Harbour Street opens at 9am.', 'showroom.txt');
      const pending = (await createDoc('draft.txt')).body.id;
      const agent = await createActiveAgent(t, ws.key);
      const patch = (ids: string[]) => t.http.patch(`/agents/${agent.id}`).set(bearer(ws.key)).send({ abilities: { knowledgeDocIds: ids } });

      const unknown = await patch([doc, 'no-such-doc']);
      expectError(unknown, 400, 'invalid_body');
      expect(unknown.body.issues).toEqual([{ path: 'abilities.knowledgeDocIds.1', message: 'no knowledge document "no-such-doc" in this workspace' }]);
      expectError(await patch([pending]), 400, 'document_not_provisioned');
      expect((await t.http.get(`/agents/${agent.id}`).set(bearer(ws.key))).body.abilities ?? null).toBeNull();

      expect((await patch([doc])).status).toBe(200);
      const prompt = await t.get(CompileAgentPrompt).execute(ws.workspaceId, agent.id);
      expect(prompt).toContain('### showroom.txt\nOur showroom at 12 Harbour Street opens at 9am.');
      // Without the reference the prompt has no knowledge section.
      await patch([]);
      expect(await t.get(CompileAgentPrompt).execute(ws.workspaceId, agent.id)).not.toContain('Harbour Street');
    });
  });

  describe('chatbots', () => {
    it('answer from their knowledge bases, keep sessions, and refuse what they must', async () => {
      const doc = await readyDoc('Refunds are paid within 14 days of the parcel reaching our warehouse.\n\nGift cards cannot be refunded.', 'refunds.txt');
      const kb = (await t.http.post('/knowledge-bases').set(bearer(ws.key)).send({ name: 'Policies', documentIds: [doc] })).body;
      expectError(await t.http.post('/chatbots').set(bearer(ws.key)).send({ name: 'Bot', knowledgeBaseIds: ['00000000-0000-4000-8000-000000000000'] }), 404, 'knowledge_base_not_found');
      const created = await t.http.post('/chatbots').set(bearer(ws.key)).send({ name: 'Support bot', knowledgeBaseIds: [kb.id], instructions: 'Be brief.' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'ACTIVE', knowledgeBaseIds: [kb.id], embedKeyVersion: 1 });
      expect(created.body.embedKey).toMatch(/^cbk_[A-Za-z0-9_-]{43}$/);
      const bot = created.body;

      const ask = (body: Record<string, unknown>, id = bot.id) => t.http.post(`/chatbots/${id}/chat`).set(bearer(ws.key)).send(body);
      const first = await ask({ message: 'How fast are refunds paid?' });
      expect(first.status).toBe(200);
      expect(first.body.answer).toBe('According to refunds.txt: Refunds are paid within 14 days of the parcel reaching our warehouse. Gift cards cannot be refunded.');
      expect(first.body.sources[0]).toMatchObject({ documentId: doc, seq: 1 });
      const again = await ask({ message: 'And gift cards?', sessionId: first.body.sessionId });
      expect(again.body.sessionId).toBe(first.body.sessionId);
      const stored = await t.dataSource.query(`SELECT role, seq FROM chatbot_messages WHERE session_id = $1 ORDER BY seq`, [first.body.sessionId]);
      expect(stored).toEqual([{ role: 'user', seq: 1 }, { role: 'assistant', seq: 2 }, { role: 'user', seq: 3 }, { role: 'assistant', seq: 4 }]);

      expectError(await ask({ message: 'hi', sessionId: '00000000-0000-4000-8000-000000000000' }), 404, 'session_not_found');
      expectError(await ask({ message: '   ' }), 400, 'empty_message');
      expectError(await ask({ message: 'hi' }, '00000000-0000-4000-8000-000000000000'), 404, 'chatbot_not_found');
      expectError(await ask({ message: 'break [[llm:fail]]' }), 500, 'chat_failed');
      const other = await t.seed({ features: ['knowledge'] });
      expectError(await t.http.get(`/chatbots/${bot.id}`).set(bearer(other.key)), 404, 'chatbot_not_found');
      expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM chatbot_messages`)).toEqual([{ n: 4 }]);

      // The instructions and the knowledge bases take effect: without a knowledge base there is nothing to quote.
      await t.http.patch(`/chatbots/${bot.id}`).set(bearer(ws.key)).send({ knowledgeBaseIds: [] });
      expect((await ask({ message: 'How fast are refunds paid?' })).body.answer).toBe('I do not know: the knowledge base has nothing on that.');
      await t.http.patch(`/chatbots/${bot.id}`).set(bearer(ws.key)).send({ status: 'DISABLED' });
      expectError(await ask({ message: 'Hello?' }), 400, 'invalid_request');
    });

    it('embed key rotation: two concurrent rotations from one version → exactly one 200 and one 409 rotation_conflict; the old key stops working', async () => {
      const bot = (await t.http.post('/chatbots').set(bearer(ws.key)).send({ name: 'Widget' })).body;
      const embed = (key: string) => t.http.post('/embed/chat').set('X-Embed-Key', key).send({ message: 'Hello' });
      expect((await embed(bot.embedKey)).status).toBe(200);

      const rotate = () => t.http.post(`/chatbots/${bot.id}/embed-key/rotate`).set(bearer(ws.key)).send({ fromVersion: 1 });
      const results = await Promise.all([rotate(), rotate()]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)!;
      expectError(results.find((r) => r.status === 409)!, 409, 'rotation_conflict');
      expect(winner.body.embedKeyVersion).toBe(2);
      expect(winner.body.embedKey).not.toBe(bot.embedKey);
      expect((await t.http.get(`/chatbots/${bot.id}`).set(bearer(ws.key))).body).toMatchObject({ embedKey: winner.body.embedKey, embedKeyVersion: 2 });

      expectError(await embed(bot.embedKey), 404, 'chatbot_not_found');
      expect((await embed(winner.body.embedKey)).status).toBe(200);
      // A rotation from a stale version is refused; without fromVersion it rotates from the current one.
      expectError(await rotate(), 409, 'rotation_conflict');
      expect((await t.http.post(`/chatbots/${bot.id}/embed-key/rotate`).set(bearer(ws.key)).send({})).body.embedKeyVersion).toBe(3);
      expectError(await t.http.post(`/chatbots/00000000-0000-4000-8000-000000000000/embed-key/rotate`).set(bearer(ws.key)).send({}), 404, 'chatbot_not_found');
    });

    it('many concurrent rotations from one version: exactly one wins', async () => {
      const bot = (await t.http.post('/chatbots').set(bearer(ws.key)).send({ name: 'Race' })).body;
      const results = await Promise.all(Array.from({ length: 6 }, () => t.http.post(`/chatbots/${bot.id}/embed-key/rotate`).set(bearer(ws.key)).send({ fromVersion: 1 })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409 && r.body.error === 'rotation_conflict')).toHaveLength(5);
      expect((await t.http.get(`/chatbots/${bot.id}`).set(bearer(ws.key))).body.embedKeyVersion).toBe(2);
    });
  });

  describe('dictionaries', () => {
    it('CRUD under agents.* scopes (no feature flag), 404 dictionary_not_found', async () => {
      const plain = await t.seed({ scopes: ['agents.view', 'agents.edit'] });
      const created = await t.http
        .post('/dictionaries')
        .set(bearer(plain.key))
        .send({ name: 'Brand names', kind: 'pronunciation', entries: [{ term: 'Xiaomi', pronunciation: 'shao-mee' }] });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Brand names', kind: 'pronunciation', entries: [{ term: 'Xiaomi', pronunciation: 'shao-mee' }] });
      const id = created.body.id;
      const bad = await t.http.post('/dictionaries').set(bearer(plain.key)).send({ name: 'X', kind: 'pronunciation', entries: [{ term: 'Nike' }] });
      expectError(bad, 400, 'invalid_body');
      expect(bad.body.issues).toEqual([{ path: 'entries.0.pronunciation', message: 'required in a pronunciation dictionary' }]);

      const updated = await t.http.patch(`/dictionaries/${id}`).set(bearer(plain.key)).send({ entries: [{ term: 'Huawei', pronunciation: 'wah-way' }] });
      expect(updated.body.entries).toEqual([{ term: 'Huawei', pronunciation: 'wah-way' }]);
      expect((await t.http.get('/dictionaries').set(bearer(plain.key))).body.dictionaries.map((d: { id: string }) => d.id)).toEqual([id]);

      expectError(await t.http.get(`/dictionaries/${id}`).set(bearer(ws.key)), 404, 'dictionary_not_found');
      expectError(await t.http.patch(`/dictionaries/${id}`).set(bearer(ws.key)).send({ name: 'Mine' }), 404, 'dictionary_not_found');
      expectError(await t.http.delete(`/dictionaries/${id}`).set(bearer(ws.key)), 404, 'dictionary_not_found');
      expect((await t.http.get(`/dictionaries/${id}`).set(bearer(plain.key))).body.name).toBe('Brand names');
      expect((await t.http.delete(`/dictionaries/${id}`).set(bearer(plain.key))).status).toBe(204);
      expectError(await t.http.get(`/dictionaries/${id}`).set(bearer(plain.key)), 404, 'dictionary_not_found');

      const docsOnly = await t.addKey(ws.workspaceId, { scopes: ['documents.edit', 'documents.view'] });
      expectError(await t.http.get('/dictionaries').set(bearer(docsOnly.key)), 403, 'forbidden');
    });

    it("an agent's dictionaries join its compiled prompt; 404 not_found (agent), 404 dictionary_not_found", async () => {
      const agent = await createActiveAgent(t, ws.key);
      const say = (await t.http.post('/dictionaries').set(bearer(ws.key)).send({ name: 'Say', kind: 'pronunciation', entries: [{ term: 'Xiaomi', pronunciation: 'shao-mee' }] })).body;
      const terms = (await t.http.post('/dictionaries').set(bearer(ws.key)).send({ name: 'Terms', kind: 'key_terms', entries: [{ term: 'RERA' }, { term: 'EMI' }] })).body;
      const set = (ids: string[], agentId = agent.id, key = ws.key) => t.http.put(`/agents/${agentId}/dictionaries`).set(bearer(key)).send({ dictionaryIds: ids });

      expectError(await set([say.id, '00000000-0000-4000-8000-000000000000']), 404, 'dictionary_not_found');
      expect((await t.http.get(`/agents/${agent.id}/dictionaries`).set(bearer(ws.key))).body.dictionaries).toEqual([]);
      expect(await t.get(CompileAgentPrompt).execute(ws.workspaceId, agent.id)).not.toContain('Xiaomi');

      const res = await set([terms.id, say.id]);
      expect(res.status).toBe(200);
      expect(res.body.dictionaries.map((d: { id: string }) => d.id)).toEqual([terms.id, say.id]);
      const prompt = await t.get(CompileAgentPrompt).execute(ws.workspaceId, agent.id);
      expect(prompt).toContain('## Pronunciations\n- Xiaomi: say "shao-mee"');
      expect(prompt).toContain('## Key terms (recognise and use exactly)\nRERA, EMI');

      // A dictionary's edit reaches the prompt; a deleted one leaves it.
      await t.http.patch(`/dictionaries/${terms.id}`).set(bearer(ws.key)).send({ entries: [{ term: 'OTP' }] });
      expect(await t.get(CompileAgentPrompt).execute(ws.workspaceId, agent.id)).toContain('\nOTP');
      await t.http.delete(`/dictionaries/${say.id}`).set(bearer(ws.key));
      expect(await t.get(CompileAgentPrompt).execute(ws.workspaceId, agent.id)).not.toContain('Xiaomi');

      const other = await t.seed();
      expectError(await set([], agent.id, other.key), 404, 'not_found');
      expectError(await t.http.get(`/agents/${agent.id}/dictionaries`).set(bearer(other.key)), 404, 'not_found');
      expectError(await set([terms.id], (await createActiveAgent(t, other.key)).id, other.key), 404, 'dictionary_not_found');
    });
  });
});
