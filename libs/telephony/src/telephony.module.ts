import { Module } from '@nestjs/common';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { PhoneNumberAdministration, PhoneNumberDirectory } from './application/phone-number-administration';
import { CarrierSettingsRepository, PhoneNumberRepository } from './application/telephony.ports';
import { PhoneNumbersController } from './http/phone-numbers.controller';
import { SqlCarrierSettingsRepository, SqlPhoneNumberRepository } from './infrastructure/sql-phone-number.repository';

/** Numbers and carriers: no controllers, usable by api, worker and cli. */
@Module({
  imports: [WorkspacesCoreModule],
  providers: [
    PhoneNumberAdministration,
    PhoneNumberDirectory,
    { provide: PhoneNumberRepository, useClass: SqlPhoneNumberRepository },
    { provide: CarrierSettingsRepository, useClass: SqlCarrierSettingsRepository },
  ],
  exports: [PhoneNumberAdministration, PhoneNumberDirectory],
})
export class TelephonyCoreModule {}

/** The HTTP face of telephony (GET /phone-numbers). */
@Module({ imports: [TelephonyCoreModule], controllers: [PhoneNumbersController], exports: [TelephonyCoreModule] })
export class TelephonyModule {}
