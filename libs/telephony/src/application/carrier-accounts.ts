import { AppError } from '@outreach/core';
import type { InboundCallRequest, PlacedCall, VoiceCallEvent, VoiceCallRequest, VoiceCallStatus, WebSession, WebSessionRequest, WebhookReply } from './voice-provider.port';
import type { WebhookRequest } from './voice-webhooks';

/** The adapters a carrier can be served by (decisions.md 27.1): the deterministic sandbox or a real provider. */
export const VOICE_ADAPTERS = ['sandbox', 'twilio', 'vapi'] as const;
export type VoiceAdapterName = (typeof VOICE_ADAPTERS)[number];
export type RealVoiceAdapterName = Exclude<VoiceAdapterName, 'sandbox'>;

/**
 * One workspace's carrier served by a real provider, with its credentials opened (never logged,
 * never answered by the API). `baseUrl` is the provider's API root (a local stub in tests).
 */
export interface CarrierAccount {
  workspaceId: string;
  carrier: string;
  adapter: RealVoiceAdapterName;
  enabled: boolean;
  baseUrl: string;
  /** Twilio: accountSid, authToken. Vapi: apiKey, serverSecret (the x-vapi-secret of its server messages). */
  credentials: Readonly<Record<string, string>>;
}

/** The carriers of each workspace that a real provider serves, and their sealed credentials. */
export abstract class CarrierAccounts {
  /** The carrier's account when a real adapter is configured for it (enabled or not); null for a sandbox carrier. */
  abstract find(workspaceId: string, carrier: string): Promise<CarrierAccount | null>;
  /** The workspace's enabled carriers served by `adapter`. */
  abstract listEnabled(workspaceId: string, adapter: RealVoiceAdapterName): Promise<CarrierAccount[]>;
  /**
   * Sets the carrier's adapter, API root and credentials (sealed at rest); `sandbox` clears them. A
   * carrier seen for the first time is enabled; the operator's switch (carrier:set) is left as it
   * is otherwise. Answers whether the carrier is enabled.
   */
  abstract configure(input: {
    workspaceId: string;
    carrier: string;
    adapter: VoiceAdapterName;
    baseUrl: string | null;
    credentials: Record<string, string> | null;
    now: Date;
  }): Promise<{ enabled: boolean }>;
}

/** Which real provider carries a call placed through it, so its poll and webhooks find the account. */
export interface VoiceCallRoute {
  callId: string;
  workspaceId: string;
  carrier: string;
  adapter: RealVoiceAdapterName;
  /** Null until the provider accepted the call. */
  providerCallId: string | null;
}

export abstract class VoiceCallRoutes {
  /** Written before the provider is asked (idempotent on the call id): a re-run finds where the call went. */
  abstract open(route: Omit<VoiceCallRoute, 'providerCallId'>): Promise<VoiceCallRoute>;
  abstract accepted(callId: string, providerCallId: string): Promise<void>;
  abstract find(callId: string): Promise<VoiceCallRoute | null>;
  abstract findByProviderCallId(adapter: RealVoiceAdapterName, providerCallId: string): Promise<VoiceCallRoute | null>;
}

/** The provider's id of each agent, per workspace carrier (Vapi assistants). */
export abstract class ProviderAgents {
  abstract find(workspaceId: string, carrier: string, agentId: string): Promise<string | null>;
  abstract save(workspaceId: string, carrier: string, agentId: string, providerAgentId: string, now: Date): Promise<void>;
}

/** What a voice-AI platform is told about an agent when it is provisioned (decisions.md 27.4). */
export interface VoiceAgentSpec {
  agentId: string;
  workspaceId: string;
  name: string;
  prompt: string;
  greeting: string | null;
  voice: { id: string; provider: string };
  maxCallDurationSecs: number;
  enableRecording: boolean;
  endCall: { enabled: boolean; message: string | null };
  voicemail: { detection: boolean; message: string | null };
  transfer: { number: string; message: string | null } | null;
  functions: Array<{ name: string; description: string; parameters: Record<string, unknown>; url: string }>;
}

/** A call as the router hands it to a real adapter: the caller id's provider id and the agent's. */
export interface CarrierCallRequest extends VoiceCallRequest {
  /** The number's id at the provider (Vapi phoneNumberId); null for a carrier that dials any caller id it owns (Twilio). */
  providerNumberId: string | null;
  /** The agent's id at the provider (Vapi assistantId); null when the adapter needs none. */
  providerAgentId: string | null;
}

/**
 * One real provider (Twilio, Vapi): speaks its HTTP API for an account. Every failure is an
 * AppError with the contract's code (provider_error with upstreamStatus, phone_number_released_upstream,
 * invalid_phone…), after bounded retries of a 5xx, 429 or an unreachable provider.
 */
export abstract class CarrierVoiceAdapter {
  abstract readonly name: RealVoiceAdapterName;
  /** The number must have been imported to the provider first (phone_number_not_synced otherwise). */
  abstract readonly needsNumberSync: boolean;
  /** The agent must have been provisioned at the provider first (agent_not_provisioned otherwise). */
  abstract readonly needsAgent: boolean;

  abstract placeCall(account: CarrierAccount, request: CarrierCallRequest): Promise<PlacedCall>;
  abstract lookupCall(account: CarrierAccount, route: VoiceCallRoute): Promise<VoiceCallStatus>;
  /** Which call a webhook is about, read before its signature can be checked (the account holds the key). */
  abstract webhookCall(request: WebhookRequest): { callId: string | null; providerCallId: string | null };
  /** Verifies the webhook with the account's secret (WebhookNotAuthentic otherwise), then reads its events. */
  abstract readWebhook(account: CarrierAccount, route: VoiceCallRoute, request: WebhookRequest, publicBaseUrl: string): VoiceCallEvent[];
  /**
   * The inbound path (decisions.md 36.3). `incomingCall`: the call this request offers, read before
   * its signature can be checked (the dialled number names the account), or null when it offers
   * none; `verifyIncoming` checks it with that account's secret (WebhookNotAuthentic otherwise).
   */
  incomingCall?(request: WebhookRequest): { providerCallId: string; from: string; to: string } | null;
  verifyIncoming?(account: CarrierAccount, request: WebhookRequest, publicBaseUrl: string): void;
  /** What the provider is told to do with an inbound call the agent takes. */
  answerIncoming?(account: CarrierAccount, request: InboundCallRequest): WebhookReply;
  /** The polite refusal of an inbound call nobody takes. */
  declineIncoming?(): WebhookReply;
  /** Imports a number to the provider; its id there. */
  importNumber?(account: CarrierAccount, e164: string): Promise<string>;
  /** Creates (or, given its id, updates) the agent at the provider; its id there. */
  provisionAgent?(account: CarrierAccount, spec: VoiceAgentSpec, existingId: string | null, serverUrl: string): Promise<string>;
  /** A browser test session with the agent (decisions.md 22.6); refused unless the adapter offers one. */
  startWebSession(account: CarrierAccount, request: WebSessionRequest): Promise<WebSession> {
    return Promise.reject(new AppError('web_session_not_supported', { message: `${this.name} (carrier ${account.carrier}) offers no web test sessions (agent ${request.agentId})` }));
  }
}
