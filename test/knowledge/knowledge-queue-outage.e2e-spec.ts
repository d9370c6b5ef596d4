import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError } from '../campaigns/campaign-helpers';
import { closeProxiedApp, testAppBehindProxy } from '../support/proxied-app';
import { TcpProxy, waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';

/*
 * Issue 18 item 4: provisioning a document while the job queue (Redis) cannot be reached answers
 * 502 document_ingest_unavailable and changes nothing (decisions.md 39.4). The API's REDIS_URL
 * points at a TcpProxy; the real Redis is never touched.
 */
const documentDir = mkdtempSync(join(tmpdir(), 'documents-outage-'));
process.env.DOCUMENT_DIR = documentDir;

describe('document provisioning with the queue down', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    ({ proxy, t } = await testAppBehindProxy('REDIS_URL'));
    ws = await t.seed({ features: ['knowledge'] });
  });
  afterAll(async () => {
    await closeProxiedApp({ proxy, t });
    rmSync(documentDir, { recursive: true, force: true });
  });

  it('refuse and blackhole: 502 document_ingest_unavailable, the document stays UPLOADED and no job is written; it goes through once Redis is back', async () => {
    const id = (await t.http.post('/documents').set(bearer(ws.key)).send({ fileName: 'faq.txt' })).body.id;
    const up = await t.http.put(`/documents/${id}/file`).set(bearer(ws.key)).attach('file', Buffer.from('Opening hours are 9 to 5.'), 'faq.txt');
    expect(up.body.status).toBe('UPLOADED');
    const jobs = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE queue = 'knowledge'`))[0].n;

    for (const mode of ['refuse', 'blackhole'] as const) {
      await proxy.setMode(mode);
      const started = Date.now();
      expectError(await t.http.post(`/documents/${id}/provision`).set(bearer(ws.key)), 502, 'document_ingest_unavailable');
      expect(Date.now() - started).toBeLessThan(3000);
      expect((await t.http.get(`/documents/${id}`).set(bearer(ws.key))).body.status).toBe('UPLOADED');
      expect(await jobs()).toBe(0);
    }

    await proxy.setMode('pass');
    const ok = await waitFor(
      'provisioning to be accepted',
      async () => (await t.http.post(`/documents/${id}/provision`).set(bearer(ws.key))).status === 202,
      8000,
    );
    expect(ok).toBe(true);
    expect((await t.http.get(`/documents/${id}`).set(bearer(ws.key))).body.status).toBe('PROCESSING');
    expect(await jobs()).toBe(1);
  }, 30_000);
});
