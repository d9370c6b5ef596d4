// The framework-free shared kernel: what domain/ code may import from the platform.
export * from './error-catalogue';
export * from './app-error';
export * from './clock';
export * from './scopes';
export * from './unit-of-work';
export * from './phone';
