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
  /** The number's id at its carrier's provider once imported there (Vapi's phoneNumberId), else null. Not in API answers. */
  providerNumberId: string | null;
  /** The INBOUND agent that answers calls to this number (PUT /phone-numbers/{id}/inbound-agent), else null. */
  inboundAgentId: string | null;
}

export abstract class PhoneNumberRepository {
  /** Inserts; refuses a number registered already (to any workspace). */
  abstract insert(number: PhoneNumber): Promise<void>;
  abstract listByWorkspace(workspaceId: string): Promise<PhoneNumberView[]>;
  /** The workspace's numbers among `ids` (others' and unknown ids are left out). */
  abstract findByIds(workspaceId: string, ids: readonly string[]): Promise<PhoneNumberView[]>;
  /** The workspace's number with this E.164, or null (a caller id that is not one of its numbers). */
  abstract findByE164(workspaceId: string, e164: string): Promise<PhoneNumberView | null>;
  abstract setProviderNumberId(workspaceId: string, id: string, providerNumberId: string): Promise<void>;
  /** Assigns (or, with null, clears) the INBOUND agent answering calls to the number. */
  abstract setInboundAgent(workspaceId: string, id: string, agentId: string | null): Promise<void>;
  /** The workspace's numbers assigned to this inbound agent. */
  abstract listByInboundAgent(workspaceId: string, agentId: string): Promise<PhoneNumberView[]>;
  /** The number with this E.164 in any workspace (numbers are unique across the service): an inbound call names only the number dialled. */
  abstract findAnyByE164(e164: string): Promise<PhoneNumberView | null>;
}

export abstract class CarrierSettingsRepository {
  abstract setEnabled(workspaceId: string, carrier: string, enabled: boolean, now: Date): Promise<void>;
}
