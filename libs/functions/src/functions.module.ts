import { Module } from '@nestjs/common';
import { CustomFunctions } from './application/custom-functions';
import { FunctionDirectory } from './application/function-directory';
import { FunctionRepository, SecretCipher } from './application/function.ports';
import { FunctionsController } from './http/functions.controller';
import { AesGcmSecretCipher } from './infrastructure/aes-gcm-secret-cipher';
import { SqlFunctionRepository } from './infrastructure/persistence/sql-function.repository';

/** Core of custom functions: no controllers, usable by api, worker and cli. */
@Module({
  providers: [
    CustomFunctions,
    FunctionDirectory,
    { provide: FunctionRepository, useClass: SqlFunctionRepository },
    { provide: SecretCipher, useClass: AesGcmSecretCipher },
  ],
  exports: [CustomFunctions, FunctionDirectory],
})
export class FunctionsCoreModule {}

/** The HTTP face of custom functions (/functions). */
@Module({ imports: [FunctionsCoreModule], controllers: [FunctionsController], exports: [FunctionsCoreModule] })
export class FunctionsModule {}
