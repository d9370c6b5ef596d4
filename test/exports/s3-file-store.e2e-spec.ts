import { RunExport } from '@outreach/exports';
import { S3FileStore } from '@outreach/files';
import { parse } from 'csv-parse/sync';
import { createCampaign } from '../campaigns/campaign-helpers';
import { bearer, TestApp } from '../support/test-app';
import { StubS3Server } from './stub-s3-server';

/*
 * The S3 adapter of the FileStore port (issue 16, item 1) against a local stub that speaks S3's
 * path-style REST and XML errors: an object appears only when its upload is committed, reads
 * stream it back, a missing key is "no file", deletes remove it, and bad credentials fail.
 */
const BUCKET = 'exports-test';
const KEY_ID = 'AKIDSTUBEXPORTS';

describe('S3FileStore (against a stub S3 server)', () => {
  const s3 = new StubS3Server(BUCKET, KEY_ID);
  let store: S3FileStore;

  beforeAll(async () => {
    await s3.start();
    store = new S3FileStore({ bucket: BUCKET, region: 'us-east-1', endpoint: s3.url, credentials: { accessKeyId: KEY_ID, secretAccessKey: 'stub-secret' } });
  });
  afterAll(async () => {
    store.destroy();
    await s3.stop();
  });

  const readAll = async (stream: NodeJS.ReadableStream): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
    return Buffer.concat(chunks);
  };

  it('an upload is invisible until committed, then one signed PUT of the whole file; GET streams it back', async () => {
    const upload = await store.begin('ws-1/export-1.csv');
    const lines = Array.from({ length: 5000 }, (_, i) => `row-${i},"quoted, ${i}"\r\n`);
    for (const line of lines) upload.stream.write(line);
    upload.stream.end();
    expect(await store.open('ws-1/export-1.csv')).toBeNull();
    expect(s3.seen.filter((r) => r.method === 'PUT')).toEqual([]);

    await upload.commit();
    const puts = s3.seen.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0].path).toBe(`/${BUCKET}/ws-1/export-1.csv`);
    expect(Number(puts[0].headers['content-length'])).toBe(Buffer.byteLength(lines.join('')));
    expect(s3.objects.get('ws-1/export-1.csv')!.toString('utf8')).toBe(lines.join(''));

    const back = await store.open('ws-1/export-1.csv');
    expect((await readAll(back!)).toString('utf8')).toBe(lines.join(''));
  });

  it('abort sends nothing; a missing key is null (NoSuchKey); delete removes the object', async () => {
    const before = s3.seen.length;
    const upload = await store.begin('ws-1/export-2.csv');
    upload.stream.write('half');
    await upload.abort();
    expect(s3.seen.slice(before).filter((r) => r.method === 'PUT')).toEqual([]);
    expect(await store.open('ws-1/export-2.csv')).toBeNull();

    await store.delete('ws-1/export-1.csv');
    expect(s3.objects.has('ws-1/export-1.csv')).toBe(false);
    expect(await store.open('ws-1/export-1.csv')).toBeNull();
  });

  it('other S3 errors are not "no file": a wrong bucket or key fails loudly', async () => {
    const wrongBucket = new S3FileStore({ bucket: 'nope', region: 'us-east-1', endpoint: s3.url, credentials: { accessKeyId: KEY_ID, secretAccessKey: 'x' } });
    await expect(wrongBucket.open('a.csv')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    const wrongKey = new S3FileStore({ bucket: BUCKET, region: 'us-east-1', endpoint: s3.url, credentials: { accessKeyId: 'OTHER', secretAccessKey: 'x' } });
    await expect(wrongKey.open('a.csv')).rejects.toMatchObject({ name: 'AccessDenied' });
    const upload = await wrongKey.begin('ws-1/x.csv');
    upload.stream.end('x');
    await expect(upload.commit()).rejects.toMatchObject({ name: 'AccessDenied' });
    wrongBucket.destroy();
    wrongKey.destroy();
  });
});

describe('EXPORT_STORE=s3: the API and the export job use the bucket', () => {
  const s3 = new StubS3Server(BUCKET, KEY_ID);
  const saved = { ...process.env };
  let t: TestApp;

  beforeAll(async () => {
    await s3.start();
    Object.assign(process.env, {
      EXPORT_STORE: 's3',
      EXPORT_S3_ENDPOINT: s3.url,
      EXPORT_S3_BUCKET: BUCKET,
      AWS_ACCESS_KEY_ID: KEY_ID,
      AWS_SECRET_ACCESS_KEY: 'stub-secret',
    });
    t = await TestApp.create();
  });
  afterAll(async () => {
    await t?.close();
    process.env = saved;
    await s3.stop();
  });

  it('the finished file is an object of the bucket, downloaded through the API', async () => {
    await t.reset();
    const ws = await t.seed({ features: ['exports'] });
    const campaign = await createCampaign(t, ws.key);
    const added = await t.http.post(`/campaigns/${campaign.id}/contacts`).set(bearer(ws.key)).send([{ phone: '+14155550101', name: 'Ann' }, { phone: '+14155550102', name: '@Bob' }]);
    expect(added.status).toBeLessThan(300);
    const res = await t.http.post(`/campaigns/${campaign.id}/exports`).set(bearer(ws.key)).send({ format: 'CSV', period: 'all_time', columns: ['phone', 'name', 'status'] });
    expect(res.status).toBe(202);
    expect(await t.get(RunExport).execute({ exportId: res.body.id })).toMatchObject({ status: 'ready', rowCount: 2 });

    const key = `${ws.workspaceId}/${res.body.id}.csv`;
    expect([...s3.objects.keys()]).toEqual([key]);
    const file = await t.http.get(`/exports/${res.body.id}/download`).set(bearer(ws.key));
    expect(file.status).toBe(200);
    expect(parse(file.text, { bom: true })).toEqual([
      ['phone', 'name', 'status'],
      ["'+14155550101", 'Ann', 'PENDING'],
      ["'+14155550102", "'@Bob", 'PENDING'],
    ]);
    expect(file.text).toBe(s3.objects.get(key)!.toString('utf8'));
  });
});
