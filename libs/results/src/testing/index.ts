export * from './in-memory-results';
export * from './result-fixtures';
