/**
 * Thrown by a job's use case to say "nothing is wrong, come back in `delayMs`": a call still in
 * progress at the provider, say. The queue worker (libs/platform QueueWorkerHost) delays the job
 * without counting an attempt, so waiting never exhausts a job's retries.
 */
export class RetryLater extends Error {
  override readonly name = 'RetryLater';

  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(reason);
  }
}

export function isRetryLater(error: unknown): error is RetryLater {
  return error instanceof RetryLater || (error instanceof Error && error.name === 'RetryLater' && 'delayMs' in error);
}
