import { Provider } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { FileStore } from '../application/exports.ports';
import { LocalFileStore } from './local-file-store';

/** EXPORT_STORE picks the adapter: local (EXPORT_DIR) by default. */
export const FILE_STORE_PROVIDER: Provider = {
  provide: FileStore,
  inject: [AppConfig],
  useFactory: (config: AppConfig): FileStore => new LocalFileStore(config),
};
