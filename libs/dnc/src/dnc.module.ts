import { Module } from '@nestjs/common';
import { DncRepository } from './application/dnc.ports';
import { DoNotCallList } from './application/do-not-call-list';
import { DncController } from './http/dnc.controller';
import { SqlDncRepository } from './infrastructure/persistence/sql-dnc.repository';

/** The do-not-call list without controllers: for the engine (worker) and the API. */
@Module({
  providers: [DoNotCallList, { provide: DncRepository, useClass: SqlDncRepository }],
  exports: [DoNotCallList],
})
export class DncCoreModule {}

/** The HTTP face: GET/POST/DELETE /dnc. */
@Module({ imports: [DncCoreModule], controllers: [DncController], exports: [DncCoreModule] })
export class DncModule {}
