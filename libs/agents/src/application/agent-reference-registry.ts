import { Injectable } from '@nestjs/common';

export type AgentReferenceCheck = (workspaceId: string, agentId: string) => Promise<boolean>;

/**
 * Who still uses an agent. Modules that reference agents (campaigns…) register a check at start-up,
 * so agents can refuse a permanent delete (409 in_use) without importing them: the dependency
 * points from campaigns to agents only.
 */
@Injectable()
export class AgentReferenceRegistry {
  private readonly checks: AgentReferenceCheck[] = [];

  register(check: AgentReferenceCheck): void {
    this.checks.push(check);
  }

  async isReferenced(workspaceId: string, agentId: string): Promise<boolean> {
    for (const check of this.checks) {
      if (await check(workspaceId, agentId)) return true;
    }
    return false;
  }
}
