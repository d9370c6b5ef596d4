// Public surface of the workspaces module: what other modules and apps may use.
import { defineMigrations } from '@outreach/platform';
export * from './workspaces.config';
export { WorkspacesCoreModule, WorkspacesModule } from './workspaces.module';
export { WorkspaceAdministration, WorkspaceView } from './application/workspace-administration';
export { MemberAdministration, MemberContact, MemberDirectory, MemberView } from './application/member-administration';
export { ApiKeyAdministration, IssuedApiKey } from './application/api-key-administration';
export { WORKSPACE_FEATURES, WORKSPACE_STATUSES, WorkspaceFeature } from './domain/workspace';
export { MEMBER_STATUSES } from './domain/member';
import { Workspaces1763700000100 } from './infrastructure/migrations/1763700000100-workspaces';
export const WORKSPACES_MIGRATIONS = defineMigrations('workspaces', [Workspaces1763700000100]);
