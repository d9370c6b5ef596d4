export * from './in-memory-campaigns';
export * from './rollback-unit-of-work';
export * from './campaign-fixtures';
export * from './in-memory-contact.repository';
export * from './in-memory-upload.store';
export * from './in-memory-api-lead-contact.store';
