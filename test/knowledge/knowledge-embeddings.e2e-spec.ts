import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Llm, LlmError, OpenAiCompatibleLlm } from '@outreach/assist';
import { IngestDocument } from '@outreach/knowledge';
import { failWith, SeenRequest, StubChatServer } from '../calls/stub-chat-server';
import { bearer, Seeded, TestApp } from '../support/test-app';

/*
 * Issue 18 item 4: retrieval with embeddings through the Llm port (KNOWLEDGE_EMBEDDINGS=true;
 * decisions.md 39.5), with the OpenAI-compatible adapter against a stub /embeddings endpoint whose
 * vectors encode concepts: a question that shares no word with the document still finds it, and a
 * failing model leaves full-text search alone.
 */
const documentDir = mkdtempSync(join(tmpdir(), 'documents-embeddings-'));
process.env.DOCUMENT_DIR = documentDir;
process.env.KNOWLEDGE_EMBEDDINGS = 'true';

/** car/automobile/vehicle → x, invoice/bill/payment → y, anything else → z. */
function conceptVector(text: string): number[] {
  if (/\b(car|automobile|vehicle)s?\b/i.test(text)) return [1, 0, 0];
  if (/\b(invoice|bill|payment)s?\b/i.test(text)) return [0, 1, 0];
  return [0, 0, 1];
}

function embeddings(req: SeenRequest, res: import('node:http').ServerResponse): void {
  const input = req.body.input as string[];
  res.writeHead(200, { 'Content-Type': 'application/json' });
  // Answered out of order on purpose: the adapter puts them back by index.
  res.end(JSON.stringify({ object: 'list', data: input.map((t, index) => ({ object: 'embedding', index, embedding: conceptVector(t) })).reverse(), model: 'stub-embed' }));
}

describe('knowledge retrieval with embeddings (OpenAI-compatible adapter, stub server)', () => {
  const stub = new StubChatServer();
  let llm: OpenAiCompatibleLlm;
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    await stub.start();
    llm = new OpenAiCompatibleLlm({ baseUrl: stub.baseUrl, apiKey: 'sk-stub', model: 'stub-chat', embeddingModel: 'stub-embed', timeoutMs: 2000 });
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Llm).useValue(llm) });
  });
  afterAll(async () => {
    await t?.close();
    await stub.stop();
    rmSync(documentDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.reset();
    stub.seen.length = 0;
    stub.handler = embeddings;
    ws = await t.seed({ features: ['knowledge'] });
  });

  async function ingested(fileName: string, text: string): Promise<string> {
    const id = (await t.http.post('/documents').set(bearer(ws.key)).send({ fileName })).body.id;
    await t.http.put(`/documents/${id}/file`).set(bearer(ws.key)).attach('file', Buffer.from(text), fileName);
    await t.http.post(`/documents/${id}/provision`).set(bearer(ws.key));
    await t.get(IngestDocument).execute({ documentId: id });
    return id;
  }
  const query = (kbId: string, q: string, limit = 1) => t.http.post(`/knowledge-bases/${kbId}/query`).set(bearer(ws.key)).send({ query: q, limit });

  it('chunks are embedded at ingestion; a question sharing no word with a document finds it by meaning', async () => {
    const car = await ingested('pickup.txt', 'Your car can be collected from our garage after 5pm.');
    const billing = await ingested('billing.txt', 'Invoices are emailed on the first day of each month.');
    const sent = stub.seen.filter((s) => s.url === '/v1/embeddings');
    expect(sent).toHaveLength(2);
    expect(sent[0].body).toEqual({ model: 'stub-embed', input: ['Your car can be collected from our garage after 5pm.'] });
    expect(sent[0].headers.authorization).toBe('Bearer sk-stub');
    const stored = await t.dataSource.query(`SELECT document_id, embedding FROM knowledge_chunks ORDER BY document_id = $1 DESC`, [car]);
    expect(stored).toEqual([
      { document_id: car, embedding: [1, 0, 0] },
      { document_id: billing, embedding: [0, 1, 0] },
    ]);

    const kb = (await t.http.post('/knowledge-bases').set(bearer(ws.key)).send({ name: 'Help', documentIds: [car, billing] })).body;
    const byMeaning = await query(kb.id, 'When may I pick up my automobile?');
    expect(byMeaning.status).toBe(200);
    expect(byMeaning.body.passages.map((p: { documentId: string }) => p.documentId)).toEqual([car]);
    expect((await query(kb.id, 'Where is my bill?')).body.passages.map((p: { documentId: string }) => p.documentId)).toEqual([billing]);

    // The model down: full-text search alone, which shares no word with the question.
    stub.handler = failWith(500);
    expect((await query(kb.id, 'When may I pick up my automobile?')).body.passages).toEqual([]);
    expect((await query(kb.id, 'garage hours', 3)).body.passages.map((p: { documentId: string }) => p.documentId)).toEqual([car]);
  });

  it('a model that fails at ingestion leaves the document READY without embeddings', async () => {
    stub.handler = failWith(503);
    const id = await ingested('pickup.txt', 'Your car can be collected from our garage after 5pm.');
    expect((await t.http.get(`/documents/${id}`).set(bearer(ws.key))).body).toMatchObject({ status: 'READY', chunkCount: 1 });
    expect(await t.dataSource.query(`SELECT embedding FROM knowledge_chunks WHERE document_id = $1`, [id])).toEqual([{ embedding: null }]);
  });

  it('the adapter: an error status, a malformed answer and a wrong count are LlmErrors', async () => {
    stub.handler = failWith(429);
    await expect(llm.embed(['a'])).rejects.toMatchObject({ reason: 'upstream_status', upstreamStatus: 429 });
    stub.handler = (_req, res) => res.end('not json');
    await expect(llm.embed(['a'])).rejects.toMatchObject({ reason: 'malformed_response' });
    stub.handler = (_req, res) => res.end(JSON.stringify({ data: [{ index: 0, embedding: [1] }] }));
    await expect(llm.embed(['a', 'b'])).rejects.toBeInstanceOf(LlmError);
  });
});
