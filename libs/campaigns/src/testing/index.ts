export * from './in-memory-campaigns';
export * from './campaign-fixtures';
