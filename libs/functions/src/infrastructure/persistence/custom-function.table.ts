import { column, defineTable } from '@outreach/platform';
import type { CustomFunctionProps, HttpMethod } from '../../domain/custom-function';

/** A stored custom function: the aggregate's props with header values sealed instead of plain. */
export interface CustomFunctionRecord extends Omit<CustomFunctionProps, 'headers'> {
  /** AES-256-GCM sealed JSON of the header values; never selected for responses. */
  headersSealed: string | null;
}

/** `custom_functions` (migration 1763700001100). */
export const CUSTOM_FUNCTIONS = defineTable<CustomFunctionRecord>('custom_functions', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  description: column.text('description'),
  /** A JSON Schema object. */
  parameters: column.json<Record<string, unknown>>('parameters'),
  method: column.text<HttpMethod>('method'),
  url: column.text('url'),
  headerNames: column.textArray('header_names'),
  headersSealed: column.nullableText('headers_sealed'),
  timeoutMs: column.int('timeout_ms'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});

/** Every column but the sealed header values: what reads load. */
export const CUSTOM_FUNCTION_PUBLIC_COLUMNS = CUSTOM_FUNCTIONS.keys.filter(
  (key): key is Exclude<keyof CustomFunctionRecord, 'headersSealed'> => key !== 'headersSealed',
);

/** The unique index on (workspace_id, lower(name)): a violation means name_taken. */
export const CUSTOM_FUNCTIONS_NAME_INDEX = 'custom_functions_workspace_name_key';
