import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/*
 * A stub S3-compatible server on 127.0.0.1 (node:http), path-style (`/<bucket>/<key>`): PutObject,
 * GetObject, DeleteObject with S3's XML errors (NoSuchKey, NoSuchBucket, AccessDenied). Requests must
 * carry a SigV4 Authorization header of the expected access key; the signature itself is not
 * recomputed (the SDK's signer is the SDK's business), its shape is checked.
 */
export interface SeenS3Request {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  bytes: number;
}

const SIGV4 = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([a-z0-9-]+)\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/;

export class StubS3Server {
  readonly objects = new Map<string, Buffer>();
  readonly seen: SeenS3Request[] = [];
  private server!: Server;

  constructor(
    readonly bucket: string,
    readonly accessKeyId: string,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const path = decodeURIComponent((req.url ?? '').split('?')[0]);
    this.seen.push({ method: req.method ?? '', path, headers: req.headers, bytes: body.length });
    const auth = SIGV4.exec(String(req.headers.authorization ?? ''));
    if (!auth || auth[1] !== this.accessKeyId || !req.headers['x-amz-date'] || !req.headers['x-amz-content-sha256']) {
      return this.error(res, 403, 'AccessDenied', 'Access Denied');
    }
    const [, bucket, ...rest] = path.split('/');
    const key = rest.join('/');
    if (bucket !== this.bucket) return this.error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    switch (req.method) {
      case 'PUT':
        if (String(req.headers['content-encoding'] ?? '').includes('aws-chunked')) return this.error(res, 501, 'NotImplemented', 'aws-chunked uploads are not supported by this stub');
        this.objects.set(key, body);
        res.writeHead(200, { ETag: `"${body.length}"` });
        return void res.end();
      case 'GET': {
        const object = this.objects.get(key);
        if (!object) return this.error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': object.length, ETag: `"${object.length}"` });
        return void res.end(object);
      }
      case 'DELETE':
        this.objects.delete(key);
        res.writeHead(204);
        return void res.end();
      default:
        return this.error(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
  }

  private error(res: ServerResponse, status: number, code: string, message: string): void {
    res.writeHead(status, { 'Content-Type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>stub</RequestId></Error>`);
  }
}
