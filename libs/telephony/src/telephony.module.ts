import { Module } from '@nestjs/common';
import { AppConfig } from '@outreach/core';
import { VoiceWebhookReaders } from './application/voice-webhooks';
import { SandboxVoiceWebhookReader } from './infrastructure/sandbox-voice-webhooks';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { PhoneNumberAdministration, PhoneNumberDirectory } from './application/phone-number-administration';
import { CarrierSettingsRepository, PhoneNumberRepository } from './application/telephony.ports';
import { VoiceCallEvents, VoiceProvider } from './application/voice-provider.port';
import { PhoneNumbersController } from './http/phone-numbers.controller';
import { RedisSandboxCallRecords, SandboxCallRecords } from './infrastructure/sandbox-call-records';
import { SandboxVoiceProvider } from './infrastructure/sandbox-voice.provider';
import { SqlCarrierSettingsRepository, SqlPhoneNumberRepository } from './infrastructure/persistence/sql-phone-number.repository';

/** Numbers, carriers and the voice provider (sandbox by default): no controllers, usable by api, worker and cli. */
@Module({
  imports: [WorkspacesCoreModule],
  providers: [
    PhoneNumberAdministration,
    PhoneNumberDirectory,
    { provide: PhoneNumberRepository, useClass: SqlPhoneNumberRepository },
    { provide: CarrierSettingsRepository, useClass: SqlCarrierSettingsRepository },
    { provide: SandboxCallRecords, useClass: RedisSandboxCallRecords },
    { provide: VoiceProvider, useClass: SandboxVoiceProvider },
    VoiceCallEvents,
    {
      provide: VoiceWebhookReaders,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new VoiceWebhookReaders([new SandboxVoiceWebhookReader(config.sandboxVoiceWebhookSecret)]),
    },
  ],
  exports: [PhoneNumberAdministration, PhoneNumberDirectory, VoiceProvider, VoiceCallEvents, VoiceWebhookReaders],
})
export class TelephonyCoreModule {}

/** The HTTP face of telephony (GET /phone-numbers). */
@Module({ imports: [TelephonyCoreModule], controllers: [PhoneNumbersController], exports: [TelephonyCoreModule] })
export class TelephonyModule {}
