export * from './in-memory-campaigns';
export * from './rollback-unit-of-work';
export * from './campaign-fixtures';
