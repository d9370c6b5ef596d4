import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { isAppError } from '@outreach/core';
import { EmailTemplates, WhatsappTemplates } from '@outreach/messaging';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { WorkflowFeature, WorkflowReferences } from '../application/workflows.ports';
import type { ReferenceCheck } from '../domain/definition-rules';
import { referencesOf, WorkflowDefinition } from '../domain/workflow-definition';

/** The agents (agents module) and templates (messaging module) a definition names, looked up in its workspace. */
@Injectable()
export class WorkspaceWorkflowReferences extends WorkflowReferences {
  constructor(
    private readonly agents: AgentDirectory,
    private readonly whatsapp: WhatsappTemplates,
    private readonly email: EmailTemplates,
  ) {
    super();
  }

  async check(workspaceId: string, definition: WorkflowDefinition): Promise<ReferenceCheck> {
    const found = new Set<string>();
    for (const ref of referencesOf(definition)) {
      const key = `${ref.kind}:${ref.id}`;
      if (found.has(key)) continue;
      if (await this.exists(workspaceId, ref.kind, ref.id)) found.add(key);
    }
    return { exists: (kind, id) => found.has(`${kind}:${id}`) };
  }

  private async exists(workspaceId: string, kind: 'agent' | 'whatsapp_template' | 'email_template', id: string): Promise<boolean> {
    if (kind === 'agent') return (await this.agents.find(workspaceId, id)) !== null;
    try {
      await (kind === 'whatsapp_template' ? this.whatsapp : this.email).get(workspaceId, id);
      return true;
    } catch (error) {
      if (isAppError(error) && error.code === 'template_not_found') return false;
      throw error;
    }
  }
}

/** The workspace's `workflows` feature flag (workspaces module). */
@Injectable()
export class WorkspaceWorkflowFeature extends WorkflowFeature {
  constructor(private readonly workspaces: WorkspaceAdministration) {
    super();
  }

  async enabled(workspaceId: string): Promise<boolean> {
    return (await this.workspaces.get(workspaceId)).features.includes('workflows');
  }
}
