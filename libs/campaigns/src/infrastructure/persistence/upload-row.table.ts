import { column, defineTable } from '@outreach/platform';
import { UploadRow } from '../../application/campaigns.ports';

export interface UploadRowRecord extends UploadRow {
  uploadId: string;
}

/** The upload_rows table (an uploaded file's data rows, cells as text), declared once. */
export const UPLOAD_ROWS = defineTable<UploadRowRecord>('upload_rows', {
  uploadId: column.uuid('upload_id'),
  rowNo: column.int('row_no'),
  cells: column.textArray('cells'),
});
