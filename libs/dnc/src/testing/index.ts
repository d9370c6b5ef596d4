// In-memory fakes of the do-not-call module's ports, for use-case specs (no Nest, no database).
// Only *.spec.ts files and other modules' testing/ folders import this (a dependency rule enforces it).
export { InMemoryDncRepository } from './in-memory-dnc.repository';
