/** Where a request with an Idempotency-Key stands, as decided by the store. */
export type IdempotencyClaim =
  /** This request holds the key: run it, then `complete` or `release` with the token. */
  | { outcome: 'acquired'; token: string }
  /** The same request already finished: answer with what it answered. */
  | { outcome: 'replay'; status: number; body: unknown }
  /** The same request is still running (in another process or connection). */
  | { outcome: 'in_progress' }
  /** The key was used for a different request (other body, path or query). */
  | { outcome: 'reused' };

export interface IdempotencyScope {
  workspaceId: string;
  /** Method and route template, e.g. "POST /calls/test": keys are scoped per route. */
  route: string;
  key: string;
  /** SHA-256 of the request (see requestHash). */
  requestHash: string;
}

/**
 * The port behind @Idempotent(). Implementations commit each call on its own (never inside the
 * handler's transaction), and throw when they cannot be reached: the interceptor turns that into
 * 503 idempotency_unavailable before anything runs.
 */
export abstract class IdempotencyStore {
  /** Claims the key for this request, or says why not. Atomic across processes. */
  abstract begin(scope: IdempotencyScope): Promise<IdempotencyClaim>;

  /** Stores the final answer of the request holding `token` (a no-op if it lost the key meanwhile). */
  abstract complete(scope: IdempotencyScope, token: string, response: { status: number; body: unknown }): Promise<void>;

  /** Gives the key up (the request failed with a 5xx: the client retries with the same key). */
  abstract release(scope: IdempotencyScope, token: string): Promise<void>;

  /** Deletes keys that expired before `before`; returns how many. For a periodic clean-up job. */
  abstract purgeExpired(before: Date): Promise<number>;
}
