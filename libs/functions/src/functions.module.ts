import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomFunctions } from './application/custom-functions';
import { FunctionDirectory } from './application/function-directory';
import { FunctionRepository, SecretCipher } from './application/function.ports';
import { FunctionsController } from './http/functions.controller';
import { AesGcmSecretCipher } from './infrastructure/aes-gcm-secret-cipher';
import { CustomFunctionEntity } from './infrastructure/custom-function.typeorm-entity';
import { TypeormFunctionRepository } from './infrastructure/typeorm-function.repository';

/** Core of custom functions: no controllers, usable by api, worker and cli. */
@Module({
  imports: [TypeOrmModule.forFeature([CustomFunctionEntity])],
  providers: [
    CustomFunctions,
    FunctionDirectory,
    { provide: FunctionRepository, useClass: TypeormFunctionRepository },
    { provide: SecretCipher, useClass: AesGcmSecretCipher },
  ],
  exports: [CustomFunctions, FunctionDirectory],
})
export class FunctionsCoreModule {}

/** The HTTP face of custom functions (/functions). */
@Module({ imports: [FunctionsCoreModule], controllers: [FunctionsController], exports: [FunctionsCoreModule] })
export class FunctionsModule {}
