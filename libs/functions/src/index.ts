// Public surface of the custom-functions module.
import { defineMigrations } from '@outreach/platform';
export * from './functions.errors';
import { Functions1763700001100 } from './infrastructure/migrations/1763700001100-functions';

export { FunctionsCoreModule, FunctionsModule } from './functions.module';
export { FunctionDirectory } from './application/function-directory';
export { CustomFunctions, FunctionView, ExecutableFunction } from './application/custom-functions';
export { HTTP_METHODS, HttpMethod } from './domain/custom-function';
export const FUNCTIONS_MIGRATIONS = defineMigrations('functions', [Functions1763700001100]);
