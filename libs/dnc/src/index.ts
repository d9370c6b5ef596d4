// Public surface of the do-not-call module.
import { defineMigrations } from '@outreach/platform';
export * from './dnc.errors';
import { DncEntries1763700003100 } from './infrastructure/migrations/1763700003100-dnc';

export { DncCoreModule, DncModule } from './dnc.module';
export { DoNotCallList, DncEntryView } from './application/do-not-call-list';
export const DNC_MIGRATIONS = defineMigrations('dnc', [DncEntries1763700003100]);
