import * as net from 'node:net';

/**
 * - `pass`: forward both ways.
 * - `refuse`: nothing listens on the port (new connects get ECONNREFUSED) and every open
 *   connection is cut, as when the server process is gone.
 * - `blackhole`: new connections are accepted and never forwarded; open connections stop
 *   forwarding. Like a dropped NAT entry or a failed-over host, a connection swallowed by the
 *   black hole stays dead even after the proxy goes back to `pass` (only new connections work
 *   again), so the client has to notice and reconnect on its own. A client's own close (FIN)
 *   still gets through, so shutting the app down does not hang.
 */
export type ProxyMode = 'pass' | 'refuse' | 'blackhole';

interface Link {
  client: net.Socket;
  upstream: net.Socket | null;
  /** Swallowed by a black hole: never forwards again. */
  dead: boolean;
}

/**
 * A loopback TCP proxy for fault drills (decisions.md 10.5): the app talks to Postgres or Redis through
 * it, and a test switches it between modes at runtime instead of stopping the shared servers.
 * Listens on 127.0.0.1 on an ephemeral port, kept across mode switches.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly links = new Set<Link>();
  private currentMode: ProxyMode = 'pass';
  private closed = false;
  private listenPort = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Starts a proxy to `host:port` (e.g. Postgres at 127.0.0.1:5432). */
  static async start(target: { host: string; port: number }, mode: ProxyMode = 'pass'): Promise<TcpProxy> {
    const proxy = new TcpProxy(target.host, target.port);
    await proxy.listen();
    await proxy.setMode(mode);
    return proxy;
  }

  /** Starts a proxy to the host and port of a URL (postgres://… or redis://…). */
  static async forUrl(url: string, mode: ProxyMode = 'pass'): Promise<TcpProxy> {
    const parsed = new URL(url);
    const defaultPort = parsed.protocol.startsWith('redis') ? 6379 : 5432;
    return TcpProxy.start({ host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || defaultPort) }, mode);
  }

  get port(): number {
    return this.listenPort;
  }

  get mode(): ProxyMode {
    return this.currentMode;
  }

  /** Open client connections (forwarding or swallowed). */
  get connectionCount(): number {
    return this.links.size;
  }

  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.listenPort);
    return parsed.toString();
  }

  async setMode(mode: ProxyMode): Promise<void> {
    if (this.closed) throw new Error('proxy closed');
    this.currentMode = mode;
    if (mode === 'refuse') {
      for (const link of [...this.links]) this.terminate(link);
      await this.stopListening();
      return;
    }
    if (mode === 'blackhole') {
      for (const link of this.links) this.swallow(link);
    }
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const link of [...this.links]) this.terminate(link);
    await this.stopListening();
  }

  private async listen(): Promise<void> {
    const server = net.createServer((socket) => this.accept(socket));
    // Re-listening after `refuse` reuses the same port; retry briefly if the OS is slow to free it.
    for (let attempt = 0; ; attempt++) {
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen({ host: '127.0.0.1', port: this.listenPort, exclusive: true }, () => {
            server.off('error', reject);
            resolve();
          });
        });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    this.listenPort = (server.address() as net.AddressInfo).port;
    server.on('error', () => undefined);
    this.server = server;
  }

  private async stopListening(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    const link: Link = { client, upstream: null, dead: false };
    this.links.add(link);
    client.setNoDelay(true);
    client.on('error', () => this.terminate(link));
    client.on('end', () => this.terminate(link));
    client.on('close', () => this.terminate(link));
    client.on('data', (chunk) => {
      // A swallowed link drops what it reads (reading on lets the client's own FIN through).
      if (!link.dead) link.upstream?.write(chunk);
    });
    if (this.currentMode !== 'pass') {
      link.dead = true; // black hole: accepted, never forwarded
      return;
    }
    const upstream = net.connect({ host: this.targetHost, port: this.targetPort });
    upstream.setNoDelay(true);
    link.upstream = upstream;
    upstream.on('data', (chunk) => {
      if (!link.dead) client.write(chunk);
    });
    const upstreamGone = () => {
      if (!link.dead) this.terminate(link);
    };
    upstream.on('error', upstreamGone);
    upstream.on('end', upstreamGone);
    upstream.on('close', upstreamGone);
  }

  /** Stops forwarding for good: the client keeps an open, silent connection. */
  private swallow(link: Link): void {
    link.dead = true;
    link.upstream?.destroy();
  }

  private terminate(link: Link): void {
    this.links.delete(link);
    link.client.destroy();
    link.upstream?.destroy();
  }
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (then throws `what`). */
export async function waitFor<T>(what: string, check: () => Promise<T> | T, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Runs `work` and reports how long it took (wall time, ms). */
export async function timed<T>(work: () => PromiseLike<T>): Promise<{ value: T; ms: number }> {
  const started = process.hrtime.bigint();
  const value = await work();
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
