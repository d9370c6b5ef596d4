import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { FileStore, FileUpload } from '../application/file-store.port';

export interface S3FileStoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, a stub); path-style addressing is used with it. */
  endpoint: string | null;
  /** Explicit credentials (tests); else the SDK's default chain (AWS_ACCESS_KEY_ID…, instance roles). */
  credentials?: S3ClientConfig['credentials'];
}

/**
 * Files in an S3-compatible bucket, for deployments with several API hosts. A file is
 * written to a local temporary file and sent with one PutObject when complete: an object appears
 * whole or not at all, and memory stays flat (the upload streams from disk).
 */
export class S3FileStore extends FileStore {
  private readonly client: S3Client;

  constructor(private readonly options: S3FileStoreOptions) {
    super();
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // No flexible-checksum trailers: plain signed PUTs that every S3-compatible server accepts.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async begin(key: string): Promise<FileUpload> {
    const dir = await mkdtemp(join(tmpdir(), 'export-'));
    const path = join(dir, `part-${randomBytes(6).toString('hex')}`);
    const stream = createWriteStream(path);
    const cleanup = () => rm(dir, { recursive: true, force: true });
    return {
      stream,
      commit: async () => {
        try {
          if (!stream.writableFinished) await new Promise<void>((ok, fail) => stream.once('finish', ok).once('error', fail));
          const { size } = await stat(path);
          await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: createReadStream(path), ContentLength: size }));
        } finally {
          await cleanup();
        }
      },
      abort: async () => {
        // The stream opens its file asynchronously: removing the directory before it has closed
        // let a late open fail (ENOENT) as an 'error' event nobody listened to.
        stream.on('error', () => undefined); // what an abandoned upload fails to write does not matter
        if (!stream.closed) await new Promise<void>((closed) => stream.once('close', () => closed()).destroy());
        await cleanup();
      },
    };
  }

  async open(key: string): Promise<Readable | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return res.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  destroy(): void {
    this.client.destroy();
  }
}
