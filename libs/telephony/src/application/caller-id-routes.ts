import { ShortLivedCache } from '@outreach/core';
import { CarrierAccount, CarrierAccounts } from './carrier-accounts';
import { PhoneNumberRepository, PhoneNumberView } from './telephony.ports';

/** A workspace's numbers or carriers changed; `all` drops everything (a process that may have missed changes). */
export type TelephonyChange = { workspaceId: string } | { all: true };

/**
 * Port: PhoneNumberAdministration announces every committed change of a workspace's numbers and
 * carriers here; every process's CallerIdRoutes hears it (decisions.md 16.40). `announce` delivers
 * to this process at once and never fails: a lost announcement costs at most CALLER_ID_ROUTE_TTL_MS.
 */
export abstract class TelephonyChanges {
  abstract announce(change: TelephonyChange): Promise<void>;
  abstract subscribe(listener: (change: TelephonyChange) => void): void;
}

/** How long a caller id's number and carrier account are reused when no change was heard. */
export const CALLER_ID_ROUTE_TTL_MS = 1000;

/** What placing a call from a caller id needs to know: the workspace's number and its carrier's real provider account (null: the sandbox's). */
export interface CallerIdRoute {
  number: PhoneNumberView | null;
  account: CarrierAccount | null;
}

/**
 * The caller id's number and carrier account for VoiceProviderRouter.placeCall, read once per
 * workspace and number for CALLER_ID_ROUTE_TTL_MS instead of before every call (decisions.md
 * 16.40). A change announced by any process (a carrier disabled or reconfigured, a number added
 * or synced) drops the workspace's entries at once; a missed announcement is bounded by the TTL,
 * the same bound ExecuteAttempt's caller-id list has always had. Listens from its first use, so
 * processes that never place a call (the CLI) open no subscription.
 */
export class CallerIdRoutes {
  private readonly cache = new ShortLivedCache<CallerIdRoute>(CALLER_ID_ROUTE_TTL_MS, 10_000);
  private listening = false;

  constructor(
    private readonly numbers: PhoneNumberRepository,
    private readonly accounts: CarrierAccounts,
    private readonly changes: TelephonyChanges,
  ) {}

  of(workspaceId: string, e164: string): Promise<CallerIdRoute> {
    if (!this.listening) {
      this.listening = true;
      this.changes.subscribe((change) => this.cache.forget('all' in change ? undefined : (key) => key.startsWith(`${change.workspaceId} `)));
    }
    return this.cache.get(`${workspaceId} ${e164}`, async () => {
      const number = await this.numbers.findByE164(workspaceId, e164);
      return { number, account: number ? await this.accounts.find(workspaceId, number.carrier) : null };
    });
  }
}
