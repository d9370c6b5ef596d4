// Fakes of the assist module's ports, for specs and e2e tests.
export { RecordingLlm, ScriptedLlm } from './recording-llm';
