import { TcpProxy } from './tcp-proxy';
import { prepareTestDatabase, TestApp } from './test-app';

/** The production default of DB_CONNECT_TIMEOUT_MS (jest-env.ts raises it for ordinary tests). */
export const OUTAGE_CONNECT_TIMEOUT_MS = '500';

/**
 * The API (TestApp) reaching Postgres or Redis through a loopback TcpProxy, for outage drills:
 * only the app's own connections go through the proxy; the test's env is restored at once, so
 * nothing else touches it. Migrations run straight on the real server first.
 */
export async function testAppBehindProxy(variable: 'DATABASE_URL' | 'REDIS_URL'): Promise<{ proxy: TcpProxy; t: TestApp }> {
  const realUrl = process.env[variable] as string;
  await prepareTestDatabase();
  const proxy = await TcpProxy.forUrl(realUrl);
  const realTimeout = process.env.DB_CONNECT_TIMEOUT_MS;
  process.env[variable] = proxy.rewrite(realUrl);
  // The service's default, which the Postgres drills measure (a Redis drill keeps the tests' own).
  if (variable === 'DATABASE_URL') process.env.DB_CONNECT_TIMEOUT_MS = OUTAGE_CONNECT_TIMEOUT_MS;
  let t: TestApp;
  try {
    t = await TestApp.create();
  } finally {
    process.env[variable] = realUrl;
    process.env.DB_CONNECT_TIMEOUT_MS = realTimeout;
  }
  await t.reset();
  return { proxy, t };
}

/** The teardown of testAppBehindProxy: the proxy passes again, then the app and the proxy close. */
export async function closeProxiedApp(app: { proxy?: TcpProxy; t?: TestApp }): Promise<void> {
  await app.proxy?.setMode('pass');
  await app.t?.close();
  await app.proxy?.close();
}
