// In-memory fake of the FileStore port, for use-case specs of every module that keeps files.
import { PassThrough, Readable } from 'node:stream';
import { FileStore, FileUpload } from '../application/file-store.port';

/** Files in memory; a file is visible only after commit, like the real stores. */
export class InMemoryFileStore extends FileStore {
  readonly files = new Map<string, Buffer>();
  readonly aborted: string[] = [];

  async begin(key: string): Promise<FileUpload> {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    return {
      stream,
      commit: async () => {
        this.files.set(key, Buffer.concat(chunks));
      },
      abort: async () => {
        this.aborted.push(key);
      },
    };
  }
  async open(key: string): Promise<Readable | null> {
    const file = this.files.get(key);
    return file ? Readable.from([file]) : null;
  }
  async delete(key: string): Promise<void> {
    this.files.delete(key);
  }
}
