export * from './in-memory-results';
export * from './result-fixtures';
export * from './in-memory-lead-key.store';
