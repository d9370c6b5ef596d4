/**
 * Per-key "one running, one waiting" scheduling: a request for a key whose work is under way
 * shares ONE follow-up run, which starts after the current one ends and therefore after the
 * request arrived — so no request is lost, and a burst of N requests costs at most two runs.
 */
export class CoalescedRuns<T> {
  private readonly flights = new Map<string, { tail: Promise<unknown>; pending: Promise<T> | null }>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    let flight = this.flights.get(key);
    if (!flight) {
      flight = { tail: Promise.resolve(), pending: null };
      this.flights.set(key, flight);
    }
    if (flight.pending) return flight.pending;
    const current = flight;
    const next = current.tail
      .catch(() => undefined)
      .then(() => {
        current.pending = null;
        return work();
      });
    current.pending = next;
    current.tail = next;
    next
      .finally(() => {
        if (this.flights.get(key)?.tail === next) this.flights.delete(key);
      })
      .catch(() => undefined);
    return next;
  }

  /** Keys with work running or waiting (for tests and shutdown). */
  get size(): number {
    return this.flights.size;
  }
}
