export * from './in-memory-carrier-settings';
export * from './in-memory-phone-numbers';
export { ScriptedVoiceProvider } from './scripted-voice.provider';
export { InMemorySandboxCallRecords } from './in-memory-sandbox-call-records';
export * from './in-memory-carrier-accounts';
export { InProcessTelephonyChanges } from './in-process-telephony-changes';
