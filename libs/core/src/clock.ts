/**
 * Where "now" comes from. Everything scheduled stores its due time in Postgres and asks the
 * clock, so tests move time instead of sleeping.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock tests can set and advance. */
export class FixedClock extends Clock {
  constructor(private current: Date = new Date()) {
    super();
  }

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(at: Date): void {
    this.current = new Date(at.getTime());
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
