import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { normaliseCarrier, PhoneNumber } from '../domain/phone-number';
import { CarrierSettingsRepository, PhoneNumberRepository, PhoneNumberView } from './telephony.ports';

/** Operator actions on numbers and carriers (the CLI's number:add and carrier:set), and the listing. */
@Injectable()
export class PhoneNumberAdministration {
  constructor(
    private readonly workspaces: WorkspaceAdministration,
    private readonly numbers: PhoneNumberRepository,
    private readonly carriers: CarrierSettingsRepository,
    private readonly clock: Clock,
  ) {}

  async add(input: { workspaceId: string; e164: string; carrier?: string; inbound?: boolean }): Promise<PhoneNumberView> {
    const workspace = await this.workspaces.get(input.workspaceId);
    const number = PhoneNumber.register({
      id: randomUUID(),
      workspaceId: workspace.id,
      e164: input.e164,
      carrier: input.carrier,
      inbound: input.inbound,
      now: this.clock.now(),
    });
    await this.numbers.insert(number);
    const [view] = await this.numbers.findByIds(workspace.id, [number.toProps().id]);
    return view;
  }

  /** Turns a carrier on or off for one workspace; numbers on a disabled carrier cannot be used. */
  async setCarrier(input: { workspaceId: string; carrier: string; enabled: boolean }): Promise<{ workspaceId: string; carrier: string; enabled: boolean }> {
    const workspace = await this.workspaces.get(input.workspaceId);
    const carrier = normaliseCarrier(input.carrier);
    await this.carriers.setEnabled(workspace.id, carrier, input.enabled, this.clock.now());
    return { workspaceId: workspace.id, carrier, enabled: input.enabled };
  }

  list(workspaceId: string): Promise<PhoneNumberView[]> {
    return this.numbers.listByWorkspace(workspaceId);
  }
}

/** What other modules (campaigns) ask about numbers. */
@Injectable()
export class PhoneNumberDirectory {
  constructor(private readonly numbers: PhoneNumberRepository) {}

  /** The workspace's numbers among `ids`, with whether their carrier is enabled; foreign and unknown ids are left out. */
  findByIds(workspaceId: string, ids: readonly string[]): Promise<PhoneNumberView[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.numbers.findByIds(workspaceId, ids);
  }
}
