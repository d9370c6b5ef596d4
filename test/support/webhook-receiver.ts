import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status this receiver answered. */
  answered: number;
}

export interface ReceiverReply {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

/**
 * A local webhook receiver for tests: node:http on 127.0.0.1 with an ephemeral port (never any
 * other address). It records every request, answers with a status the test chooses (or a queue
 * of replies), and can go down (connections refused) and come back up on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private replies: ReceiverReply[] = [];
  private fallback: ReceiverReply = { status: 200 };
  private server: Server;
  private port = 0;

  private constructor() {
    this.server = this.newServer();
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.listen(0);
    return receiver;
  }

  /** The receiver's URL (path defaults to /hook). */
  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Answer every later request with this (until changed). */
  respondWith(status: number, headers?: Record<string, string>, delayMs?: number): void {
    this.replies = [];
    this.fallback = { status, headers, delayMs };
  }

  /** Answer the next requests with these, in order, then with the standing reply. */
  queueReplies(...replies: ReceiverReply[]): void {
    this.replies.push(...replies);
  }

  get isUp(): boolean {
    return this.server.listening;
  }

  /** Stop listening: connections are refused until up(). */
  async down(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Listen again on the same port. */
  async up(): Promise<void> {
    if (this.server.listening) return;
    this.server = this.newServer();
    await this.listen(this.port);
  }

  clear(): void {
    this.received.length = 0;
  }

  async close(): Promise<void> {
    await this.down();
  }

  private newServer(): Server {
    return createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const reply = this.replies.shift() ?? this.fallback;
        this.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: reply.status });
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(reply.status, { 'content-type': 'text/plain', ...(reply.headers ?? {}) });
          res.end('ok');
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
        else send();
      });
    });
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
}
