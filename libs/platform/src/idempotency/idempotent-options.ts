export const IDEMPOTENT_OPTIONS = 'outreach:idempotent';

export interface IdempotentOptions {
  /** Status of idempotency_key_reused on this route: 422 by default, 409 on POST /calls/test. */
  reusedStatus?: 409 | 422;
}
