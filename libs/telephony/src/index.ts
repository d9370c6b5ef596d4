// Public surface of the telephony module: phone numbers and carriers.
import { defineMigrations } from '@outreach/platform';
export * from './telephony.errors';
export * from './telephony.config';
import { Telephony1763700002000 } from './infrastructure/migrations/1763700002000-telephony';
import { RealVoiceProviders1763700009600 } from './infrastructure/migrations/1763700009600-real-voice-providers';
import { InboundNumbers1763700011300 } from './infrastructure/migrations/1763700011300-inbound-numbers';

export { TelephonyCoreModule, TelephonyModule } from './telephony.module';
export { PhoneNumberAdministration, PhoneNumberDirectory } from './application/phone-number-administration';
export { PhoneNumberView } from './application/telephony.ports';
export { PhoneNumberResponse, toPhoneNumberResponse } from './http/phone-numbers.controller';
export {
  ANSWERED_OUTCOMES,
  CALL_OUTCOMES,
  CallOutcome,
  CONNECTED_OUTCOMES,
  InboundCallRequest,
  IncomingCall,
  isAnswered,
  PlacedCall,
  VoiceCallEvent,
  VoiceCallEvents,
  VoiceCallRequest,
  VoiceCallResult,
  VoiceCallStatus,
  VoiceProvider,
  WebhookReply,
  WebSession,
  WebSessionRequest,
} from './application/voice-provider.port';
export { fromWire, toWire, VoiceCallEventWire, VoiceWebhookReader, VoiceWebhookReaders, WebhookNotAuthentic } from './application/voice-webhooks';
export { SANDBOX_SIGNATURE_HEADER, SandboxVoiceWebhookReader, signSandboxIncoming, signSandboxWebhook } from './infrastructure/sandbox-voice-webhooks';
export { SandboxCallRecord, SandboxCallRecords } from './infrastructure/sandbox-call-records';
export { SandboxScript, sandboxInboundScript, sandboxReferralOf, sandboxScript, sandboxTimeline, SandboxVoiceProvider } from './infrastructure/sandbox-voice.provider';
export { DEFAULT_CARRIER } from './domain/phone-number';
export { VOICE_ADAPTERS, VoiceAdapterName, VoiceAgentSpec } from './application/carrier-accounts';
export { VoiceAgentHosting } from './application/voice-provider-router';
export { CALLER_ID_ROUTE_TTL_MS, TelephonyChange, TelephonyChanges } from './application/caller-id-routes';
export { WebhookRequest } from './application/voice-webhooks';
export { twilioSignature, TWILIO_SIGNATURE_HEADER } from './infrastructure/twilio-voice.adapter';
export { VAPI_SECRET_HEADER } from './infrastructure/vapi-voice.adapter';
export const TELEPHONY_MIGRATIONS = defineMigrations('telephony', [Telephony1763700002000, RealVoiceProviders1763700009600, InboundNumbers1763700011300]);
