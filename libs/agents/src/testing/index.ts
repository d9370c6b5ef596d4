export * from './in-memory-agent-directory';
