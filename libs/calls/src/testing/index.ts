// In-memory fakes of the calls module's ports, for use-case specs (no Nest, no database).
// Only *.spec.ts files and other modules' testing/ folders import this (a dependency rule enforces it).
export { InMemoryCallQueries, InMemoryCallRepository } from './in-memory-calls';
