import { column, defineTable } from '@outreach/platform';
import { UploadMeta } from '../../application/campaigns.ports';

/** The uploads table (an uploaded file's header and size until it expires), declared once. */
export const UPLOADS = defineTable<UploadMeta>('uploads', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  fileName: column.text('file_name'),
  columns: column.textArray('columns'),
  rowCount: column.int('row_count'),
  expiresAt: column.timestamp('expires_at'),
  createdAt: column.timestamp('created_at'),
});
