import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyResolver } from '@outreach/platform';
import { ApiKeyAdministration } from './application/api-key-administration';
import { MemberAdministration } from './application/member-administration';
import { ApiKeyRepository, MemberRepository, WorkspaceRepository } from './application/workspace.ports';
import { WorkspaceAdministration } from './application/workspace-administration';
import { WorkspaceController } from './http/workspace.controller';
import { TypeormApiKeyResolver } from './infrastructure/typeorm-api-key.resolver';
import {
  TypeormApiKeyRepository,
  TypeormMemberRepository,
  TypeormWorkspaceRepository,
} from './infrastructure/typeorm-workspace.repositories';
import { ApiKeyEntity, MemberEntity, WorkspaceEntity } from './infrastructure/workspace.typeorm-entities';

const applicationServices = [WorkspaceAdministration, MemberAdministration, ApiKeyAdministration];

/** Core of the workspace model: no controllers, usable by api, worker and cli. */
@Module({
  imports: [TypeOrmModule.forFeature([WorkspaceEntity, MemberEntity, ApiKeyEntity])],
  providers: [
    ...applicationServices,
    { provide: WorkspaceRepository, useClass: TypeormWorkspaceRepository },
    { provide: MemberRepository, useClass: TypeormMemberRepository },
    { provide: ApiKeyRepository, useClass: TypeormApiKeyRepository },
    { provide: ApiKeyResolver, useClass: TypeormApiKeyResolver },
  ],
  exports: [...applicationServices, ApiKeyResolver],
})
export class WorkspacesCoreModule {}

/** The HTTP face of workspaces (GET /v1/workspace). */
@Module({ imports: [WorkspacesCoreModule], controllers: [WorkspaceController], exports: [WorkspacesCoreModule] })
export class WorkspacesModule {}
