// In-memory fakes of the engine's ports and a test bed of its use cases, for use-case specs.
// Only *.spec.ts files and other modules' testing/ folders import this (a dependency rule enforces it).
export * from './recording-engine-ports';
export * from './engine-test-bed';
