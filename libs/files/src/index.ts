// Public surface of the files library: the FileStore port shared by the modules that keep files
// (exports, knowledge) and its two adapters (decisions.md 39.2). No tables, codes or settings of
// its own: each module picks the adapter and its directory or bucket from its own configuration.
export { FileStore, FileUpload, putFile, readFile } from './application/file-store.port';
export { LocalFileStore } from './infrastructure/local-file-store';
export { S3FileStore, S3FileStoreOptions } from './infrastructure/s3-file-store';
