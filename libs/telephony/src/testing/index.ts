// In-memory fakes of the telephony module's ports, for use-case specs (no Nest, no database).
// Only *.spec.ts files and other modules' testing/ folders import this (a dependency rule enforces it).
export { InMemoryCarrierSettings, InMemoryPhoneNumberRepository } from './in-memory-phone-numbers';
export { ScriptedVoiceProvider } from './scripted-voice.provider';
