import { TelephonyChange, TelephonyChanges } from '../application/caller-id-routes';

/** TelephonyChanges within one process (unit tests): announcements reach this process's listeners only. */
export class InProcessTelephonyChanges extends TelephonyChanges {
  private readonly listeners: Array<(change: TelephonyChange) => void> = [];

  announce(change: TelephonyChange): Promise<void> {
    for (const listener of this.listeners) listener(change);
    return Promise.resolve();
  }

  subscribe(listener: (change: TelephonyChange) => void): void {
    this.listeners.push(listener);
  }
}
