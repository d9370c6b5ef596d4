// The framework-free shared kernel (@outreach/core): errors, clock, unit of work, scopes, the
// configuration fragments every module declares. What domain/ code may import.
export * from './error-registry';
export * from './pending.errors';
export * from './app-error';
export * from './clock';
export * from './scopes';
export * from './unit-of-work';
export * from './env-reader';
export * from './config-fragments';
export * from './phone';
export * from './outbox';
export * from './statement-parts';
export * from './app-config';
export * from './retry-later';
export * from './short-lived-cache';
export * from './grouped-runs';
export * from './time-ordered-id';
