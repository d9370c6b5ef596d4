// In-memory fakes of the campaigns module's ports, for use-case specs (no Nest, no database).
// Only *.spec.ts files and other modules' testing/ folders import this (a dependency rule enforces it).
export { InMemoryContactRepository } from './in-memory-contact.repository';
export { InMemoryUploadStore } from './in-memory-upload.store';
export { apiLeadIntakeOver, InMemoryApiLeadContactStore } from './in-memory-api-lead-contact.store';
