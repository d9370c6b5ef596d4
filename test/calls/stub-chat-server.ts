import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/*
 * A stub OpenAI-compatible chat-completions server on 127.0.0.1 (node:http), started by the
 * test: the analysis adapter is never pointed at the internet.
 */

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type StubHandler = (req: SeenRequest, res: ServerResponse) => void;

export class StubChatServer {
  readonly seen: SeenRequest[] = [];
  handler: StubHandler = (_req, res) => res.end();
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(raw || '{}');
        } catch {
          body = { unparsable: raw };
        }
        const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
        this.seen.push(seen);
        this.handler(seen, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A chat completion whose first message has `content`. */
export function completion(content: string): string {
  return JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content } }] });
}

/** Answers 200 with {extraction, evaluation} as the message content. */
export function answerWith(result: { extraction: Record<string, unknown>; evaluation: Record<string, unknown> }): StubHandler {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(completion(JSON.stringify(result)));
  };
}

/** Answers with an error status. */
export function failWith(status: number): StubHandler {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `stub ${status}` } }));
  };
}
