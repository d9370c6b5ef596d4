// Fakes of the assist module's ports, for use-case specs and e2e tests (never production code).
export { RecordingLlm, ScriptedLlm } from './recording-llm';
export { FakePdfTextReader, FixedCampaignFigures, InMemoryCampaignDrafts, InMemoryChatSessions } from './in-memory-assist';
export { SANDBOX_LLM_MARKERS } from '../infrastructure/llm/sandbox-llm';
