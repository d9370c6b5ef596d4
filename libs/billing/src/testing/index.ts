// Fakes of what the billing module offers other modules, for use-case specs (no Nest, no database).
// Only *.spec.ts files and other modules' testing/ folders import this (a dependency rule enforces it).
export { FixedCreditStatus, FixedTariffs, RecordingWalletDebits } from './billing-fakes';
