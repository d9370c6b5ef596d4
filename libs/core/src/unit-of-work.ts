/**
 * Runs work atomically. Repositories and the outbox called inside `run` share one database
 * transaction; nested calls join the outer one. Implemented in the platform's database layer.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
