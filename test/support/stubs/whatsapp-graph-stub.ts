import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The wamid the recorded fixtures use for our outbound message. */
export const FIXTURE_WAMID = 'wamid.HBgLMTQxNTU1NTAxMjcVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA';

/** Where the fixtures hold our message id (`biz_opaque_callback_data`, echoed by Graph in status webhooks). */
export const FIXTURE_OUR_ID = 'OUR_MESSAGE_ID';

/**
 * A recorded body of the WhatsApp Cloud API (test/fixtures/whatsapp/<name>.json); `replace` swaps
 * ids in it (e.g. the fixture's wamid for the one a send got), keeping the recorded shape.
 */
export function graphFixture(name: string, replace: Record<string, string> = {}): Record<string, unknown> {
  let text = readFileSync(join(__dirname, '..', '..', 'fixtures', 'whatsapp', `${name}.json`), 'utf8');
  for (const [from, to] of Object.entries(replace)) text = text.split(from).join(to);
  return JSON.parse(text) as Record<string, unknown>;
}

export interface GraphRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/**
 * A local stand-in for graph.facebook.com (127.0.0.1, random port) speaking the Cloud API's
 * shapes: POST /{phone-number-id}/messages answers the recorded send response, GET
 * /{phone-number-id} the recorded phone number; `answerNext` queues other answers (errors, 5xx).
 * Every request is recorded.
 */
export class GraphStub {
  readonly requests: GraphRequest[] = [];
  private readonly queued: Array<{ status: number; body: unknown }> = [];
  /** The wamids the stub gave accepted sends, in order. */
  readonly acceptedIds: string[] = [];
  /** Every send the stub accepted (at its arrival, as Graph does): its wamid, recipient and `biz_opaque_callback_data`. */
  readonly accepted: Array<{ wamid: string; to: string; opaque: string | null }> = [];
  /** How long the stub takes to answer a request (a send is accepted when it arrives: Graph sends it even if the caller hangs up). */
  latencyMs = 0;
  /** Requests received and not yet answered. */
  pending = 0;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<GraphStub> {
    const stub = new GraphStub(createServer());
    stub.server.on('request', (req: IncomingMessage, res: ServerResponse) => stub.handle(req, res));
    await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
    return stub;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body: text ? JSON.parse(text) : null });
      const next = this.queued.shift() ?? this.defaultAnswer(req.method ?? 'GET', path, text ? JSON.parse(text) : null);
      const answer = () => {
        this.pending--;
        if (res.destroyed) return;
        res.writeHead(next.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(next.body));
      };
      this.pending++;
      if (this.latencyMs > 0) setTimeout(answer, this.latencyMs);
      else answer();
    });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v21.0`;
  }

  /** The next requests get these answers, in order (then the defaults again). */
  answerNext(...answers: Array<{ status: number; body: unknown }>): void {
    this.queued.push(...answers);
  }

  reset(): void {
    this.requests.length = 0;
    this.queued.length = 0;
    this.acceptedIds.length = 0;
    this.accepted.length = 0;
    this.latencyMs = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /**
   * The status webhook Graph sends for an accepted message (the recorded delivered + read body):
   * its wamid and, as Graph does, the `biz_opaque_callback_data` the send carried.
   */
  statusWebhook(sent: { wamid: string; opaque: string | null }): Record<string, unknown> {
    const body = graphFixture('webhook-statuses', { [FIXTURE_WAMID]: sent.wamid, [FIXTURE_OUR_ID]: sent.opaque ?? '' });
    if (sent.opaque === null) {
      const statuses = (body as { entry: Array<{ changes: Array<{ value: { statuses: Array<Record<string, unknown>> } }> }> }).entry[0].changes[0].value.statuses;
      for (const status of statuses) delete status.biz_opaque_callback_data;
    }
    return body;
  }

  private defaultAnswer(method: string, path: string, body: unknown): { status: number; body: unknown } {
    if (method === 'POST' && /\/messages$/.test(path)) {
      // The recorded answer with a wamid of its own: ids are unique at the provider (and event ids,
      // derived from them, must not repeat across test runs: BullMQ remembers job ids).
      const recorded = graphFixture('send-template.response');
      const id = `wamid.stub.${randomUUID()}`;
      this.acceptedIds.push(id);
      const sent = (body ?? {}) as { to?: string; biz_opaque_callback_data?: string };
      this.accepted.push({ wamid: id, to: `+${String(sent.to ?? '').replace(/^\+/, '')}`, opaque: sent.biz_opaque_callback_data ?? null });
      return { status: 200, body: { ...recorded, messages: [{ id, message_status: 'accepted' }] } };
    }
    if (method === 'GET') return { status: 200, body: graphFixture('phone-number.response') };
    return { status: 404, body: { error: { message: 'Unknown path components', type: 'OAuthException', code: 2500 } } };
  }
}
