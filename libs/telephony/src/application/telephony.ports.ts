import { PhoneNumber } from '../domain/phone-number';

/** A number as other modules and the API see it. */
export interface PhoneNumberView {
  id: string;
  workspaceId: string;
  e164: string;
  carrier: string;
  /** Whether the operator has the number's carrier enabled for the workspace. */
  carrierEnabled: boolean;
  inbound: boolean;
  createdAt: string;
}

export abstract class PhoneNumberRepository {
  /** Inserts; refuses a number registered already (to any workspace). */
  abstract insert(number: PhoneNumber): Promise<void>;
  abstract listByWorkspace(workspaceId: string): Promise<PhoneNumberView[]>;
  /** The workspace's numbers among `ids` (others' and unknown ids are left out). */
  abstract findByIds(workspaceId: string, ids: readonly string[]): Promise<PhoneNumberView[]>;
}

export abstract class CarrierSettingsRepository {
  abstract setEnabled(workspaceId: string, carrier: string, enabled: boolean, now: Date): Promise<void>;
}
