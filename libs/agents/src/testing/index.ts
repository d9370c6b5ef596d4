// In-memory fakes of what the agents module offers other modules, for use-case specs.
// Only *.spec.ts files and other modules' testing/ folders import this (a dependency rule enforces it).
export { InMemoryAgentDirectory } from './in-memory-agent.directory';
