import { Module } from '@nestjs/common';
import { AppConfig, Clock } from '@outreach/core';
import { VoiceWebhookReaders } from './application/voice-webhooks';
import { SandboxVoiceWebhookReader } from './infrastructure/sandbox-voice-webhooks';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { CallerIdRoutes, TelephonyChanges } from './application/caller-id-routes';
import { CarrierAccounts, ProviderAgents, VoiceCallRoutes } from './application/carrier-accounts';
import { PhoneNumberAdministration, PhoneNumberDirectory } from './application/phone-number-administration';
import { CarrierSettingsRepository, PhoneNumberRepository } from './application/telephony.ports';
import { CarrierVoiceAdapters, CarrierWebhookReader, VoiceAgentHosting, VoiceProviderRouter } from './application/voice-provider-router';
import { VoiceCallEvents, VoiceProvider } from './application/voice-provider.port';
import { PhoneNumbersController } from './http/phone-numbers.controller';
import { CarrierCredentialSealer } from './infrastructure/carrier-credential.sealer';
import { RedisTelephonyChanges } from './infrastructure/redis-telephony-changes';
import { RedisSandboxCallRecords, SandboxCallRecords } from './infrastructure/sandbox-call-records';
import { SandboxVoiceProvider } from './infrastructure/sandbox-voice.provider';
import { SqlCarrierAccounts, SqlProviderAgents, SqlVoiceCallRoutes } from './infrastructure/persistence/sql-carrier-accounts';
import { SqlCarrierSettingsRepository, SqlPhoneNumberRepository } from './infrastructure/persistence/sql-phone-number.repository';
import { TwilioVoiceAdapter } from './infrastructure/twilio-voice.adapter';
import { VapiVoiceAdapter } from './infrastructure/vapi-voice.adapter';

/**
 * Numbers, carriers and the voice provider: no controllers, usable by api, worker and cli.
 * VoiceProvider is the router (decisions.md 27.1): the sandbox by default, Twilio or Vapi for a
 * number whose workspace carrier is configured for them.
 */
@Module({
  imports: [WorkspacesCoreModule],
  providers: [
    PhoneNumberAdministration,
    PhoneNumberDirectory,
    CarrierCredentialSealer,
    { provide: PhoneNumberRepository, useClass: SqlPhoneNumberRepository },
    { provide: CarrierSettingsRepository, useClass: SqlCarrierSettingsRepository },
    { provide: CarrierAccounts, useClass: SqlCarrierAccounts },
    { provide: VoiceCallRoutes, useClass: SqlVoiceCallRoutes },
    { provide: ProviderAgents, useClass: SqlProviderAgents },
    { provide: TelephonyChanges, useClass: RedisTelephonyChanges },
    {
      provide: CallerIdRoutes,
      inject: [PhoneNumberRepository, CarrierAccounts, TelephonyChanges],
      useFactory: (numbers: PhoneNumberRepository, accounts: CarrierAccounts, changes: TelephonyChanges) => new CallerIdRoutes(numbers, accounts, changes),
    },
    { provide: SandboxCallRecords, useClass: RedisSandboxCallRecords },
    SandboxVoiceProvider,
    {
      provide: CarrierVoiceAdapters,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new CarrierVoiceAdapters([new TwilioVoiceAdapter(config.publicBaseUrl), new VapiVoiceAdapter()]),
    },
    {
      provide: VoiceProvider,
      inject: [SandboxVoiceProvider, CarrierVoiceAdapters, CarrierAccounts, VoiceCallRoutes, PhoneNumberRepository, ProviderAgents, CallerIdRoutes],
      useFactory: (
        sandbox: SandboxVoiceProvider,
        adapters: CarrierVoiceAdapters,
        accounts: CarrierAccounts,
        routes: VoiceCallRoutes,
        numbers: PhoneNumberRepository,
        agents: ProviderAgents,
        callerIds: CallerIdRoutes,
      ) => new VoiceProviderRouter(sandbox, adapters, accounts, routes, numbers, agents, callerIds),
    },
    {
      provide: VoiceAgentHosting,
      inject: [CarrierVoiceAdapters, CarrierAccounts, ProviderAgents, AppConfig, Clock],
      useFactory: (adapters: CarrierVoiceAdapters, accounts: CarrierAccounts, agents: ProviderAgents, config: AppConfig, clock: Clock) =>
        new VoiceAgentHosting(adapters, accounts, agents, config.publicBaseUrl, () => clock.now()),
    },
    VoiceCallEvents,
    {
      provide: VoiceWebhookReaders,
      inject: [AppConfig, CarrierVoiceAdapters, VoiceCallRoutes, CarrierAccounts, PhoneNumberRepository],
      useFactory: (config: AppConfig, adapters: CarrierVoiceAdapters, routes: VoiceCallRoutes, accounts: CarrierAccounts, numbers: PhoneNumberRepository) =>
        new VoiceWebhookReaders([
          new SandboxVoiceWebhookReader(config.sandboxVoiceWebhookSecret),
          ...adapters.all.map((adapter) => new CarrierWebhookReader(adapter, routes, accounts, config.publicBaseUrl, numbers)),
        ]),
    },
  ],
  exports: [PhoneNumberAdministration, PhoneNumberDirectory, VoiceProvider, SandboxVoiceProvider, VoiceCallEvents, VoiceWebhookReaders, VoiceAgentHosting],
})
export class TelephonyCoreModule {}

/** The HTTP face of telephony (GET /phone-numbers). */
@Module({ imports: [TelephonyCoreModule], controllers: [PhoneNumbersController], exports: [TelephonyCoreModule] })
export class TelephonyModule {}
