import { Module } from '@nestjs/common';
import { ApiKeyResolver } from '@outreach/platform';
import { ApiKeyAdministration } from './application/api-key-administration';
import { MemberAdministration, MemberDirectory } from './application/member-administration';
import { ApiKeyRepository, MemberRepository, WorkspaceRepository } from './application/workspace.ports';
import { WorkspaceAdministration } from './application/workspace-administration';
import { WorkspaceController } from './http/workspace.controller';
import { SqlApiKeyResolver } from './infrastructure/persistence/sql-api-key.resolver';
import { SqlApiKeyRepository, SqlMemberRepository, SqlWorkspaceRepository } from './infrastructure/persistence/sql-workspace.repositories';

const applicationServices = [WorkspaceAdministration, MemberAdministration, ApiKeyAdministration];

/** Core of the workspace model: no controllers, usable by api, worker and cli. */
@Module({
  providers: [
    ...applicationServices,
    { provide: WorkspaceRepository, useClass: SqlWorkspaceRepository },
    { provide: MemberRepository, useClass: SqlMemberRepository },
    { provide: ApiKeyRepository, useClass: SqlApiKeyRepository },
    { provide: ApiKeyResolver, useClass: SqlApiKeyResolver },
    { provide: MemberDirectory, useExisting: MemberAdministration },
  ],
  exports: [...applicationServices, ApiKeyResolver, MemberDirectory],
})
export class WorkspacesCoreModule {}

/** The HTTP face of workspaces (GET /v1/workspace). */
@Module({ imports: [WorkspacesCoreModule], controllers: [WorkspaceController], exports: [WorkspacesCoreModule] })
export class WorkspacesModule {}
