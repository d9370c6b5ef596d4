import { Provider } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { FileStore } from '../application/exports.ports';
import { LocalFileStore, S3FileStore } from '@outreach/files';

/** EXPORT_STORE picks the adapter: local (EXPORT_DIR) by default, s3 (EXPORT_S3_*) for several API hosts. */
export const FILE_STORE_PROVIDER: Provider = {
  provide: FileStore,
  inject: [AppConfig],
  useFactory: (config: AppConfig): FileStore =>
    config.exportStore === 's3'
      ? new S3FileStore({ bucket: config.exportS3Bucket, region: config.exportS3Region, endpoint: config.exportS3Endpoint })
      : new LocalFileStore(config.exportDir),
};
