/** How a CRM is connected: an API key / token pasted by the user, or an OAuth sign-in by a person. */
export type CrmAuthType = 'API_KEY' | 'OAUTH';

/** One entry of GET /crm/providers. */
export interface CrmProviderInfo {
  slug: string;
  name: string;
  authType: CrmAuthType;
  supportsWebhooks: boolean;
  capabilities: { contacts: boolean; segments: boolean; orders: boolean };
  /** The members of `credentials` an API-key connect takes (documentation; the adapter checks them). */
  credentialFields: string[];
  /** The record fields a mapping may name as its source. */
  fields: string[];
}

/** A record as the CRM holds it: its id and its fields (flattened, text or null). */
export interface CrmRecord {
  id: string;
  properties: Record<string, string | null>;
}

/** One page of records; `nextCursor` null means the last page; `total` when the CRM tells it. */
export interface CrmPage {
  records: CrmRecord[];
  nextCursor: string | null;
  total: number | null;
}

/** A segment (list, saved search, filter) of the CRM. */
export interface CrmSegment {
  id: string;
  name: string;
  size: number | null;
}
