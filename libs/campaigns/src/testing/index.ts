export * from './in-memory-campaigns';
export * from './in-memory-campaign-execution';
export * from './campaign-fixtures';
export * from './in-memory-contact-timeline';
export * from './in-memory-inbound-campaigns';
