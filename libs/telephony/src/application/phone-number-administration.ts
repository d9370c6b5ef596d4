import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock } from '@outreach/core';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { normaliseCarrier, PhoneNumber } from '../domain/phone-number';
import { TelephonyChanges } from './caller-id-routes';
import { CarrierAccounts, VOICE_ADAPTERS, VoiceAdapterName } from './carrier-accounts';
import { CarrierSettingsRepository, PhoneNumberRepository, PhoneNumberView } from './telephony.ports';
import { CarrierVoiceAdapters } from './voice-provider-router';

/** The credentials each real adapter needs (decisions.md 27.5); others are kept as given (e.g. Twilio's twimlUrl). */
const REQUIRED_CREDENTIALS: Record<Exclude<VoiceAdapterName, 'sandbox'>, readonly string[]> = {
  twilio: ['accountSid', 'authToken'],
  vapi: ['apiKey', 'serverSecret'],
};

/**
 * Operator actions on numbers and carriers (the CLI's number:add and carrier:set), and the listing.
 * Every change is announced once written (TelephonyChanges): each process's CallerIdRoutes drops
 * what it knew of the workspace (decisions.md 16.40).
 */
@Injectable()
export class PhoneNumberAdministration {
  constructor(
    private readonly workspaces: WorkspaceAdministration,
    private readonly numbers: PhoneNumberRepository,
    private readonly carriers: CarrierSettingsRepository,
    private readonly clock: Clock,
    private readonly accounts: CarrierAccounts,
    private readonly adapters: CarrierVoiceAdapters,
    private readonly changes: TelephonyChanges,
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
    await this.changes.announce({ workspaceId: workspace.id });
    const [view] = await this.numbers.findByIds(workspace.id, [number.toProps().id]);
    return view;
  }

  /** Turns a carrier on or off for one workspace; numbers on a disabled carrier cannot be used. */
  async setCarrier(input: { workspaceId: string; carrier: string; enabled: boolean }): Promise<{ workspaceId: string; carrier: string; enabled: boolean }> {
    const workspace = await this.workspaces.get(input.workspaceId);
    const carrier = normaliseCarrier(input.carrier);
    await this.carriers.setEnabled(workspace.id, carrier, input.enabled, this.clock.now());
    await this.changes.announce({ workspaceId: workspace.id });
    return { workspaceId: workspace.id, carrier, enabled: input.enabled };
  }

  /**
   * Serves a workspace's carrier by a real provider (or the sandbox again), with its API root and
   * credentials (sealed at rest; the answer never shows them). A new carrier is enabled; the
   * operator's switch (setCarrier) of a known one stays as it was.
   */
  async configureCarrier(input: {
    workspaceId: string;
    carrier: string;
    adapter: string;
    baseUrl?: string | null;
    credentials?: Record<string, unknown> | null;
  }): Promise<{ workspaceId: string; carrier: string; adapter: VoiceAdapterName; enabled: boolean }> {
    const workspace = await this.workspaces.get(input.workspaceId);
    const carrier = normaliseCarrier(input.carrier);
    const adapter = VOICE_ADAPTERS.find((a) => a === input.adapter);
    if (!adapter) throw new AppError('invalid_request', { message: `adapter must be one of ${VOICE_ADAPTERS.join(', ')}` });
    let credentials: Record<string, string> | null = null;
    if (adapter !== 'sandbox') {
      const given = input.credentials ?? {};
      const missing = REQUIRED_CREDENTIALS[adapter].filter((k) => typeof given[k] !== 'string' || given[k] === '');
      if (missing.length > 0) throw new AppError('invalid_request', { message: `${adapter} credentials need ${missing.join(', ')}` });
      credentials = Object.fromEntries(Object.entries(given).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    }
    if (input.baseUrl && !/^https?:\/\/[^\s]+$/.test(input.baseUrl)) throw new AppError('invalid_request', { message: 'baseUrl must be an http(s) URL' });
    const { enabled } = await this.accounts.configure({ workspaceId: workspace.id, carrier, adapter, baseUrl: input.baseUrl ?? null, credentials, now: this.clock.now() });
    await this.changes.announce({ workspaceId: workspace.id });
    return { workspaceId: workspace.id, carrier, adapter, enabled };
  }

  /**
   * Imports a number to its carrier's provider (Vapi: POST /phone-number) and keeps the provider's
   * id for it; until then the provider's calls from it answer phone_number_not_synced.
   */
  async syncNumber(input: { workspaceId: string; numberId: string }): Promise<PhoneNumberView> {
    const [number] = await this.numbers.findByIds(input.workspaceId, [input.numberId]);
    if (!number) throw new AppError('phone_number_not_found', { message: `no phone number ${input.numberId}` });
    const account = await this.accounts.find(number.workspaceId, number.carrier);
    const adapter = account ? this.adapters.get(account.adapter) : null;
    if (!account || !adapter?.importNumber) {
      throw new AppError('invalid_request', { message: `the carrier ${number.carrier} has no provider that imports numbers` });
    }
    const providerNumberId = await adapter.importNumber(account, number.e164);
    await this.numbers.setProviderNumberId(number.workspaceId, number.id, providerNumberId);
    await this.changes.announce({ workspaceId: number.workspaceId });
    return (await this.numbers.findByIds(number.workspaceId, [number.id]))[0];
  }

  list(workspaceId: string): Promise<PhoneNumberView[]> {
    return this.numbers.listByWorkspace(workspaceId);
  }

  /** The workspace's number, or 404 phone_number_not_found (unknown, malformed or another workspace's id). */
  async require(workspaceId: string, numberId: string): Promise<PhoneNumberView> {
    const [number] = await this.numbers.findByIds(workspaceId, [numberId]);
    if (!number) throw new AppError('phone_number_not_found', { message: `no phone number ${numberId}` });
    return number;
  }

  /**
   * Assigns the INBOUND agent that answers calls to the number, or clears it with null (decisions.md
   * 36.1). The caller (the agents module) has checked the agent. A number its carrier's provider
   * must import first (Vapi) cannot take calls before it is synced: 409 phone_number_not_synced.
   */
  async assignInboundAgent(workspaceId: string, numberId: string, agentId: string | null): Promise<PhoneNumberView> {
    const number = await this.require(workspaceId, numberId);
    if (agentId !== null) {
      const account = await this.accounts.find(number.workspaceId, number.carrier);
      if (account && this.adapters.get(account.adapter).needsNumberSync && !number.providerNumberId) {
        throw new AppError('phone_number_not_synced', { message: `${number.e164} has not been imported to ${account.adapter} yet (operator: number:sync)` });
      }
    }
    await this.numbers.setInboundAgent(workspaceId, number.id, agentId);
    await this.changes.announce({ workspaceId });
    return this.require(workspaceId, number.id);
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

  /** The workspace's numbers assigned to this INBOUND agent (decisions.md 36.1). */
  byInboundAgent(workspaceId: string, agentId: string): Promise<PhoneNumberView[]> {
    return this.numbers.listByInboundAgent(workspaceId, agentId);
  }

  /** The number with this E.164 in any workspace, or null: an inbound call names only the number dialled. */
  findAnyByE164(e164: string): Promise<PhoneNumberView | null> {
    return this.numbers.findAnyByE164(e164);
  }
}
