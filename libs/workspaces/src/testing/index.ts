export * from './stub-workspace-administration';
