import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore, FileUpload } from '../application/file-store.port';

/**
 * Files under a local directory (the exports' EXPORT_DIR, the documents' DOCUMENT_DIR). A file is written as `<key>.part-<random>` and
 * renamed to its key when complete: a reader never sees half a file, and a crash leaves only a
 * `.part-` file nobody serves, removed when the job starts again (one worker holds a job at a time).
 */
export class LocalFileStore extends FileStore {
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  async begin(key: string): Promise<FileUpload> {
    const path = this.path(key);
    const partial = `${path}.part-${randomBytes(6).toString('hex')}`;
    await mkdir(dirname(path), { recursive: true });
    const stale = (await readdir(dirname(path))).filter((name) => name.startsWith(`${basename(path)}.part-`));
    for (const name of stale) await rm(join(dirname(path), name), { force: true });
    const stream = createWriteStream(partial);
    return {
      stream,
      commit: async () => {
        if (!stream.writableFinished) await new Promise<void>((ok, fail) => stream.once('finish', ok).once('error', fail));
        await rename(partial, path);
      },
      abort: async () => {
        stream.destroy();
        await rm(partial, { force: true });
      },
    };
  }

  async open(key: string): Promise<Readable | null> {
    const path = this.path(key);
    const found = await stat(path).catch(() => null);
    return found?.isFile() ? createReadStream(path) : null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  /** Keys are relative paths (`<workspaceId>/<id>.<ext>`); anything resolving outside the root is refused. */
  private path(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`file key outside the store: ${key}`);
    return path;
  }
}
