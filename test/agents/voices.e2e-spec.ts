import { bearer, Seeded, TestApp } from '../support/test-app';

describe('Voices and background audio catalogues', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    ws = await t.seed();
  });
  afterAll(() => t.close());

  it('GET /voices lists the catalogue (unpaginated)', async () => {
    const res = await t.http.get('/voices').set(bearer(ws.key));
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(3);
    expect(res.body[0]).toEqual({
      id: 'aria',
      name: 'Aria',
      gender: 'female',
      language: 'en-US',
      accent: 'American',
      provider: 'sandbox',
      previewAvailable: true,
    });
    expect(res.body.some((v: { previewAvailable: boolean }) => !v.previewAvailable)).toBe(true);
  });

  it('GET /background-audio lists the sounds backgroundAudioId may name', async () => {
    const res = await t.http.get('/background-audio').set(bearer(ws.key));
    expect(res.status).toBe(200);
    expect(res.body.map((a: { id: string }) => a.id)).toEqual(['office', 'call-center', 'cafe', 'static']);
  });

  it('GET /voices/{id}/preview: a WAV sample, 501 preview_not_supported without one, 404 not_found for an unknown voice', async () => {
    const ok = await t.http.get('/voices/aria/preview').set(bearer(ws.key)).buffer(true);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('audio/wav');
    expect((ok.body as Buffer).subarray(0, 4).toString()).toBe('RIFF');

    const none = await t.http.get('/voices/sam/preview').set(bearer(ws.key));
    expect({ status: none.status, error: none.body.error }).toEqual({ status: 501, error: 'preview_not_supported' });
    const unknown = await t.http.get('/voices/robot-9000/preview').set(bearer(ws.key));
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 404, error: 'not_found' });
  });

  it('needs agents.view', async () => {
    const key = await t.addKey(ws.workspaceId, { scopes: ['functions.view'] });
    for (const path of ['/voices', '/background-audio', '/voices/aria/preview']) {
      const res = await t.http.get(path).set(bearer(key.key));
      expect({ status: res.status, error: res.body.error, requiredPermission: res.body.requiredPermission }).toEqual({
        status: 403,
        error: 'forbidden',
        requiredPermission: 'agents.view',
      });
    }
  });
});
