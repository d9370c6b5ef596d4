import type { Readable, Writable } from 'node:stream';

/** A file being written: visible under its key only after `commit` (write to a temporary name, then rename). */
export interface FileUpload {
  readonly stream: Writable;
  /** Makes the file visible under its key; call once the stream has finished. */
  commit(): Promise<void>;
  /** Drops the partial file. */
  abort(): Promise<void>;
}

/**
 * Where files live: a local directory or an S3-compatible bucket. One port for every module that
 * keeps files (export artifacts, knowledge documents; decisions.md 39.2); each module builds its own
 * instance over its own directory or bucket.
 */
export abstract class FileStore {
  abstract begin(key: string): Promise<FileUpload>;
  /** The file, or null when there is none under that key. */
  abstract open(key: string): Promise<Readable | null>;
  abstract delete(key: string): Promise<void>;
}

/** Writes a whole buffer under `key` (begin, write, commit; abort on any failure). */
export async function putFile(store: FileStore, key: string, body: Buffer): Promise<void> {
  const upload = await store.begin(key);
  try {
    await new Promise<void>((ok, fail) => {
      upload.stream.once('error', fail);
      upload.stream.end(body, () => ok());
    });
    await upload.commit();
  } catch (error) {
    await upload.abort().catch(() => undefined);
    throw error;
  }
}

/** The whole file under `key` in memory, or null when there is none. */
export async function readFile(store: FileStore, key: string): Promise<Buffer | null> {
  const stream = await store.open(key);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
