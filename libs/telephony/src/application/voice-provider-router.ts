import { AppError, isUuid } from '@outreach/core';
import { CallerIdRoutes } from './caller-id-routes';
import { CarrierAccount, CarrierAccounts, CarrierVoiceAdapter, ProviderAgents, RealVoiceAdapterName, VoiceAgentSpec, VoiceCallRoutes } from './carrier-accounts';
import { PhoneNumberRepository } from './telephony.ports';
import { InboundCallRequest, IncomingCall, PlacedCall, VoiceCallEvent, VoiceCallRequest, VoiceCallStatus, VoiceProvider, WebSession, WebSessionRequest, WebhookReply } from './voice-provider.port';
import { VoiceWebhookReader, WebhookNotAuthentic, WebhookRequest } from './voice-webhooks';

/** The real providers' adapters, by name. */
export class CarrierVoiceAdapters {
  private readonly byName: ReadonlyMap<string, CarrierVoiceAdapter>;

  constructor(readonly all: readonly CarrierVoiceAdapter[]) {
    this.byName = new Map(all.map((a) => [a.name, a]));
  }

  get(name: RealVoiceAdapterName): CarrierVoiceAdapter {
    const adapter = this.byName.get(name);
    if (!adapter) throw new Error(`no voice adapter ${name}`);
    return adapter;
  }
}

/**
 * The VoiceProvider every caller uses (decisions.md 27.1): the caller id's carrier picks the
 * adapter. A number whose workspace carrier is configured for a real provider (Twilio, Vapi) is
 * dialled through it, with the carrier's credentials; everything else — a sandbox carrier, a
 * carrier with no adapter configured, the operator's SANDBOX_FROM_NUMBER — goes to the sandbox,
 * which stays the default. A call placed through a real provider leaves a route (call id →
 * workspace, carrier, provider call id), written before the provider is asked, so its poll, its
 * webhooks and a re-run find the account. The caller id's number and account come from
 * CallerIdRoutes (decisions.md 16.40): a change to them applies to the next call.
 */
export class VoiceProviderRouter extends VoiceProvider {
  readonly name = 'router';

  constructor(
    private readonly sandbox: VoiceProvider,
    private readonly adapters: CarrierVoiceAdapters,
    private readonly accounts: CarrierAccounts,
    private readonly routes: VoiceCallRoutes,
    private readonly numbers: PhoneNumberRepository,
    private readonly agents: ProviderAgents,
    private readonly callerIds: CallerIdRoutes,
  ) {
    super();
  }

  async placeCall(request: VoiceCallRequest): Promise<PlacedCall> {
    const { number, account } = await this.callerIds.of(request.workspaceId, request.from);
    if (!number || !account) return this.sandbox.placeCall(request);
    if (!account.enabled) {
      throw new AppError('phone_number_not_in_workspace', { message: `the carrier ${account.carrier} of ${number.e164} is disabled for this workspace` });
    }
    const adapter = this.adapters.get(account.adapter);
    if (adapter.needsNumberSync && !number.providerNumberId) {
      throw new AppError('phone_number_not_synced', { message: `${number.e164} has not been imported to ${adapter.name} yet (operator: number:sync)` });
    }
    let providerAgentId: string | null = null;
    if (adapter.needsAgent) {
      providerAgentId = request.agentId ? await this.agents.find(request.workspaceId, account.carrier, request.agentId) : null;
      if (!providerAgentId) throw new AppError('agent_not_provisioned', { message: `the agent is not provisioned at ${adapter.name} yet` });
    }
    const route = await this.routes.open({ callId: request.callId, workspaceId: request.workspaceId, carrier: account.carrier, adapter: adapter.name });
    // Placed before (a re-run): the provider has it, nobody is dialled twice.
    if (route.providerCallId) return { providerCallId: route.providerCallId };
    const placed = await adapter.placeCall(account, { ...request, providerNumberId: number.providerNumberId, providerAgentId });
    await this.routes.accepted(request.callId, placed.providerCallId);
    return placed;
  }

  /**
   * An inbound call (decisions.md 36.3) is taken by the provider that offered it: the sandbox's by
   * the sandbox; a real provider's through its adapter, with a route (call id → carrier, provider call
   * id) so its status callbacks and poll find the call as they find a placed one.
   */
  override async replyToIncoming(request: InboundCallRequest): Promise<WebhookReply | null> {
    const { incoming } = request;
    if (incoming.provider === this.sandbox.name) return this.sandbox.replyToIncoming(request);
    const number = await this.numbers.findByE164(request.workspaceId, incoming.to);
    const account = number ? await this.accounts.find(request.workspaceId, number.carrier) : null;
    const adapter = account && account.adapter === incoming.provider ? this.adapters.get(account.adapter) : null;
    if (!account || !adapter?.answerIncoming) throw new AppError('not_supported', { message: `inbound calls through ${incoming.provider} are not supported for ${incoming.to}` });
    await this.routes.open({ callId: request.callId, workspaceId: request.workspaceId, carrier: account.carrier, adapter: adapter.name });
    await this.routes.accepted(request.callId, incoming.providerCallId);
    return adapter.answerIncoming(account, request);
  }

  override async answerCall(request: InboundCallRequest): Promise<{ providerCallId: string }> {
    const { incoming } = request;
    if (incoming.provider === this.sandbox.name) return this.sandbox.answerCall(request);
    // A real provider took the call when it was told to (replyToIncoming opened its route).
    const route = await this.routes.find(request.callId);
    if (!route || route.adapter !== incoming.provider) throw new AppError('not_supported', { message: `call ${request.callId} was not taken through ${incoming.provider}` });
    return { providerCallId: incoming.providerCallId };
  }

  override declineCall(incoming: IncomingCall): WebhookReply | null {
    if (incoming.provider === this.sandbox.name) return this.sandbox.declineCall(incoming);
    const adapter = this.adapters.all.find((a) => a.name === incoming.provider);
    return adapter?.declineIncoming?.() ?? null;
  }

  /**
   * A web session has no caller id, so the workspace's carriers pick the adapter (decisions.md
   * 22.6): the first enabled carrier served by a real adapter answers (Twilio and Vapi refuse, 501
   * web_session_not_supported); a workspace with none is the sandbox's, as its test calls are.
   */
  override async startWebSession(request: WebSessionRequest): Promise<WebSession> {
    for (const adapter of this.adapters.all) {
      const [account] = await this.accounts.listEnabled(request.workspaceId, adapter.name);
      if (account) return adapter.startWebSession(account, request);
    }
    return this.sandbox.startWebSession(request);
  }

  async lookupCall(callId: string): Promise<VoiceCallStatus> {
    const route = isUuid(callId) ? await this.routes.find(callId) : null;
    if (!route) return this.sandbox.lookupCall(callId);
    const account = await this.accounts.find(route.workspaceId, route.carrier);
    if (!account || account.adapter !== route.adapter) {
      throw new AppError('provider_error', { message: `the carrier ${route.carrier} that placed call ${callId} is no longer served by ${route.adapter}` });
    }
    return this.adapters.get(route.adapter).lookupCall(account, route);
  }
}

/**
 * A real provider's webhooks (decisions.md 27.1): the call they are about is read from the
 * request (our call id in the callback URL or the call's metadata, else the provider's call id),
 * its route gives the carrier account, and the adapter verifies the signature with that account's
 * secret before reading anything else. A call we do not know cannot be verified: refused.
 */
export class CarrierWebhookReader extends VoiceWebhookReader {
  readonly provider: string;

  constructor(
    private readonly adapter: CarrierVoiceAdapter,
    private readonly routes: VoiceCallRoutes,
    private readonly accounts: CarrierAccounts,
    private readonly publicBaseUrl: string,
    private readonly numbers: PhoneNumberRepository,
  ) {
    super();
    this.provider = adapter.name;
  }

  /**
   * An inbound call (decisions.md 36.3): the number dialled names the workspace and its carrier
   * account, whose secret verifies the request before anything else is read. A call to a number
   * that is not ours, or not on this provider, cannot be verified: refused. An offer of a call we
   * already took (a redelivery) is read as that call's events.
   */
  override async readIncoming(request: WebhookRequest): Promise<IncomingCall | null> {
    const offer = this.adapter.incomingCall?.(request) ?? null;
    if (!offer || (await this.routes.findByProviderCallId(this.adapter.name, offer.providerCallId))) return null;
    const number = await this.numbers.findAnyByE164(offer.to);
    const account = number ? await this.accounts.find(number.workspaceId, number.carrier) : null;
    if (!account || account.adapter !== this.adapter.name || !this.adapter.verifyIncoming) throw new WebhookNotAuthentic(`${offer.to} is not a number served by ${this.adapter.name}`);
    this.adapter.verifyIncoming(account, request, this.publicBaseUrl);
    return { provider: this.adapter.name, eventId: `${offer.providerCallId}:incoming`, providerCallId: offer.providerCallId, from: offer.from, to: offer.to, at: new Date() };
  }

  async read(request: WebhookRequest): Promise<VoiceCallEvent[]> {
    const ref = this.adapter.webhookCall(request);
    const route =
      ref.callId && isUuid(ref.callId)
        ? await this.routes.find(ref.callId)
        : ref.providerCallId
          ? await this.routes.findByProviderCallId(this.adapter.name, ref.providerCallId)
          : null;
    if (!route || route.adapter !== this.adapter.name) throw new WebhookNotAuthentic(`not a call placed through ${this.adapter.name}`);
    const account = await this.accounts.find(route.workspaceId, route.carrier);
    if (!account || account.adapter !== this.adapter.name) throw new WebhookNotAuthentic(`the call's carrier is no longer served by ${this.adapter.name}`);
    return this.adapter.readWebhook(account, route, request, this.publicBaseUrl);
  }
}

/**
 * Agents at the voice-AI platforms that host them (decisions.md 27.4): provisioning an agent
 * creates (or updates) its assistant at every enabled carrier of the workspace whose adapter hosts
 * agents (Vapi), and remembers the provider's id per carrier. A provider that fails rejects
 * (provider_error): the provisioning job is retried and the agent stays PROVISIONING.
 */
export class VoiceAgentHosting {
  constructor(
    private readonly adapters: CarrierVoiceAdapters,
    private readonly accounts: CarrierAccounts,
    private readonly agents: ProviderAgents,
    private readonly publicBaseUrl: string,
    private readonly now: () => Date,
  ) {}

  /** Whether an enabled carrier of the workspace hosts agents (an edited agent must be pushed there). */
  async hosts(workspaceId: string): Promise<boolean> {
    for (const adapter of this.adapters.all) {
      if (adapter.needsAgent && (await this.accounts.listEnabled(workspaceId, adapter.name)).length > 0) return true;
    }
    return false;
  }

  /** The provider's id of the agent at the first carrier that hosts it, or null when none does (the sandbox's turn). */
  async provision(spec: VoiceAgentSpec): Promise<string | null> {
    let first: string | null = null;
    for (const adapter of this.adapters.all) {
      if (!adapter.needsAgent || !adapter.provisionAgent) continue;
      const accounts: CarrierAccount[] = await this.accounts.listEnabled(spec.workspaceId, adapter.name);
      for (const account of accounts) {
        const existing = await this.agents.find(spec.workspaceId, account.carrier, spec.agentId);
        const id = await adapter.provisionAgent(account, spec, existing, `${this.publicBaseUrl}/webhooks/voice/${adapter.name}`);
        await this.agents.save(spec.workspaceId, account.carrier, spec.agentId, id, this.now());
        first ??= id;
      }
    }
    return first;
  }
}
