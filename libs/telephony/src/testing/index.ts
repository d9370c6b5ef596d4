export * from './in-memory-phone-numbers';
export { ScriptedVoiceProvider } from './scripted-voice.provider';
export * from './in-memory-carrier-phone-numbers';
