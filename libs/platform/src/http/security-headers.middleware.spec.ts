import { once } from 'node:events';
import { AddressInfo } from 'node:net';
import express, { RequestHandler } from 'express';
import helmet, { HelmetOptions } from 'helmet';
import { fixedSecurityHeaders } from './security-headers.middleware';

const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:'] } },
};

/** The headers of one answer of an Express app with this middleware in front. */
async function headersWith(middleware: RequestHandler, path: string): Promise<Record<string, string>> {
  const app = express();
  app.use(middleware);
  app.get('/ok', (_req, res) => res.json({ ok: true }));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    await res.arrayBuffer();
    const headers = Object.fromEntries(res.headers);
    delete headers.date;
    delete headers.etag;
    return headers;
  } finally {
    server.close();
  }
}

describe('fixedSecurityHeaders', () => {
  it.each(['/ok', '/missing'])("answers %s with exactly helmet's headers (X-Powered-By removed too)", async (path) => {
    const ours = await headersWith(fixedSecurityHeaders(OPTIONS), path);
    const theirs = await headersWith(helmet(OPTIONS), path);
    expect(ours).toEqual(theirs);
    // (Express's own 404 page sets a stricter CSP of its own, for both.)
    if (path === '/ok') expect(ours['content-security-policy']).toContain("default-src 'self'");
    expect(ours).not.toHaveProperty('x-powered-by');
    expect(Object.keys(ours).length).toBeGreaterThan(10);
  });

  it('refuses a directive that depends on the request', () => {
    const nonce = () => "'nonce-x'";
    expect(() => fixedSecurityHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", nonce] } } })).toThrow(/scriptSrc depends on the request/);
  });
});
