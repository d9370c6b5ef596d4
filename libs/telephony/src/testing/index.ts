export * from './in-memory-phone-numbers';
