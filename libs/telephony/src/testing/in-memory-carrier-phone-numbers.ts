import { AppError } from '@outreach/core';
import { CarrierSettingsRepository, PhoneNumberRepository, PhoneNumberView } from '../application/telephony.ports';
import { PhoneNumber, PhoneNumberProps } from '../domain/phone-number';

/**
 * Carrier switches per workspace in memory (a carrier never set is enabled), and the numbers on
 * them: a number is unique across the service, as the unique index keeps it.
 */
export class InMemoryCarrierSettings extends CarrierSettingsRepository {
  readonly disabled = new Set<string>();

  async setEnabled(workspaceId: string, carrier: string, enabled: boolean): Promise<void> {
    if (enabled) this.disabled.delete(`${workspaceId}/${carrier}`);
    else this.disabled.add(`${workspaceId}/${carrier}`);
  }

  isEnabled(workspaceId: string, carrier: string): boolean {
    return !this.disabled.has(`${workspaceId}/${carrier}`);
  }
}

export class SeededPhoneNumberRepository extends PhoneNumberRepository {
  readonly numbers: PhoneNumberProps[] = [];

  constructor(readonly carriers: InMemoryCarrierSettings = new InMemoryCarrierSettings()) {
    super();
  }

  /** Test setup: a number registered as the operator would (the domain's checks apply). */
  async seed(input: { id: string; workspaceId: string; e164: string; carrier?: string; inbound?: boolean }): Promise<PhoneNumberView> {
    await this.insert(PhoneNumber.register({ ...input, now: new Date('2026-01-01T00:00:00.000Z') }));
    return (await this.findByIds(input.workspaceId, [input.id]))[0];
  }

  async insert(number: PhoneNumber): Promise<void> {
    const p = number.toProps();
    if (this.numbers.some((n) => n.e164 === p.e164)) throw new AppError('invalid_request', { message: `${p.e164} is registered already` });
    this.numbers.push(p);
  }

  async listByWorkspace(workspaceId: string): Promise<PhoneNumberView[]> {
    return this.numbers.filter((n) => n.workspaceId === workspaceId).map((n) => this.view(n));
  }

  async findByIds(workspaceId: string, ids: readonly string[]): Promise<PhoneNumberView[]> {
    return this.numbers.filter((n) => n.workspaceId === workspaceId && ids.includes(n.id)).map((n) => this.view(n));
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
    };
  }
}
