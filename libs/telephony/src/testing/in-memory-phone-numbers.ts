// An in-memory PhoneNumberRepository over InMemoryCarrierSettings, and the real PhoneNumberDirectory
// on top of it, for use-case specs of telephony and of the modules that use numbers (campaigns, calls).
import { AppError } from '@outreach/core';
import { PhoneNumberDirectory } from '../application/phone-number-administration';
import { PhoneNumberRepository, PhoneNumberView } from '../application/telephony.ports';
import { PhoneNumber, PhoneNumberProps } from '../domain/phone-number';
import { InMemoryCarrierSettings } from './in-memory-carrier-settings';

/**
 * Numbers by id, in the order they were added; an E.164 number is unique across the service, as the
 * unique index keeps it (invalid_request). A view's `carrierEnabled` comes from the carrier settings.
 */
export class InMemoryPhoneNumberRepository extends PhoneNumberRepository {
  readonly numbers = new Map<string, PhoneNumberProps>();
  readonly providerNumberIds = new Map<string, string>();
  readonly inboundAgents = new Map<string, string>();

  constructor(readonly carriers: InMemoryCarrierSettings = new InMemoryCarrierSettings()) {
    super();
  }

  /**
   * Test setup: stores a number as it is, replacing one with its id (defaults: carrier sandbox,
   * outbound only). `carrierEnabled`, when given, switches its carrier for the workspace.
   */
  add(number: Partial<PhoneNumberView> & { id: string; workspaceId: string; e164: string }): PhoneNumberView {
    const { carrierEnabled, createdAt, providerNumberId, inboundAgentId, ...rest } = number;
    if (providerNumberId) this.providerNumberIds.set(rest.id, providerNumberId);
    if (inboundAgentId) this.inboundAgents.set(rest.id, inboundAgentId);
    const props: PhoneNumberProps = { carrier: 'sandbox', inbound: false, ...rest, createdAt: new Date(createdAt ?? '2026-01-01T00:00:00.000Z') };
    this.numbers.set(props.id, props);
    if (carrierEnabled !== undefined) {
      if (carrierEnabled) this.carriers.disabled.delete(`${props.workspaceId}/${props.carrier}`);
      else this.carriers.disabled.add(`${props.workspaceId}/${props.carrier}`);
    }
    return this.view(props);
  }

  /** Test setup: a number registered as the operator would (the domain's checks and the uniqueness apply). */
  async seed(input: { id: string; workspaceId: string; e164: string; carrier?: string; inbound?: boolean }): Promise<PhoneNumberView> {
    await this.insert(PhoneNumber.register({ ...input, now: new Date('2026-01-01T00:00:00.000Z') }));
    return this.view(this.numbers.get(input.id)!);
  }

  async insert(number: PhoneNumber): Promise<void> {
    const p = number.toProps();
    if ([...this.numbers.values()].some((n) => n.e164 === p.e164)) throw new AppError('invalid_request', { message: `${p.e164} is registered already` });
    this.numbers.set(p.id, p);
  }

  async listByWorkspace(workspaceId: string): Promise<PhoneNumberView[]> {
    return [...this.numbers.values()].filter((n) => n.workspaceId === workspaceId).map((n) => this.view(n));
  }

  async findByIds(workspaceId: string, ids: readonly string[]): Promise<PhoneNumberView[]> {
    return ids.flatMap((id) => {
      const n = this.numbers.get(id);
      return n && n.workspaceId === workspaceId ? [this.view(n)] : [];
    });
  }

  async findByE164(workspaceId: string, e164: string): Promise<PhoneNumberView | null> {
    const n = [...this.numbers.values()].find((x) => x.workspaceId === workspaceId && x.e164 === e164);
    return n ? this.view(n) : null;
  }

  async setProviderNumberId(workspaceId: string, id: string, providerNumberId: string): Promise<void> {
    if (this.numbers.get(id)?.workspaceId === workspaceId) this.providerNumberIds.set(id, providerNumberId);
  }

  async setInboundAgent(workspaceId: string, id: string, agentId: string | null): Promise<void> {
    if (this.numbers.get(id)?.workspaceId !== workspaceId) return;
    if (agentId) this.inboundAgents.set(id, agentId);
    else this.inboundAgents.delete(id);
  }

  async listByInboundAgent(workspaceId: string, agentId: string): Promise<PhoneNumberView[]> {
    return [...this.numbers.values()].filter((n) => n.workspaceId === workspaceId && this.inboundAgents.get(n.id) === agentId).map((n) => this.view(n));
  }

  async findAnyByE164(e164: string): Promise<PhoneNumberView | null> {
    const n = [...this.numbers.values()].find((x) => x.e164 === e164);
    return n ? this.view(n) : null;
  }

  private view(n: PhoneNumberProps): PhoneNumberView {
    return {
      id: n.id,
      workspaceId: n.workspaceId,
      e164: n.e164,
      carrier: n.carrier,
      carrierEnabled: this.carriers.isEnabled(n.workspaceId, n.carrier),
      inbound: n.inbound,
      createdAt: n.createdAt.toISOString(),
      providerNumberId: this.providerNumberIds.get(n.id) ?? null,
      inboundAgentId: this.inboundAgents.get(n.id) ?? null,
    };
  }
}

/** The real directory over an in-memory repository; `numbers` is where a spec adds numbers. */
export function inMemoryPhoneNumberDirectory(carriers?: InMemoryCarrierSettings): { directory: PhoneNumberDirectory; numbers: InMemoryPhoneNumberRepository } {
  const numbers = new InMemoryPhoneNumberRepository(carriers);
  return { directory: new PhoneNumberDirectory(numbers), numbers };
}
