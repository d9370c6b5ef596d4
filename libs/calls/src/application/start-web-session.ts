import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { AppError } from '@outreach/core';
import { VoiceProvider, WebSession } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';

/**
 * POST /calls/test/web: a browser test session with an agent (decisions.md 22.6). Checked as a test
 * call's agent is (22.4): agent unknown or another workspace's → 404 agent_not_found; archived → 400
 * agent_archived; not ACTIVE → 409 agent_not_provisioned; workspace not ACTIVE → 402
 * workspace_not_active; activity frozen → 402 activity_frozen. Then the VoiceProvider, routed by the
 * workspace's carriers: the sandbox makes a session up; Twilio and Vapi answer 501
 * web_session_not_supported. Nothing is recorded or billed (no call is placed).
 */
@Injectable()
export class StartWebSession {
  constructor(
    private readonly agents: AgentDirectory,
    private readonly workspaces: WorkspaceAdministration,
    private readonly voice: VoiceProvider,
  ) {}

  async execute(input: { workspaceId: string; agentId: string }): Promise<WebSession & { agentId: string }> {
    const { workspaceId } = input;
    const agent = await this.agents.find(workspaceId, input.agentId);
    if (!agent) throw new AppError('agent_not_found', { message: `no agent ${input.agentId}` });
    if (agent.status === 'archived') throw new AppError('agent_archived');
    if (agent.status !== 'ACTIVE') throw new AppError('agent_not_provisioned', { message: `the agent is ${agent.status}` });
    const workspace = await this.workspaces.get(workspaceId);
    if (workspace.status !== 'ACTIVE') throw new AppError('workspace_not_active', { message: `the workspace is ${workspace.status}` });
    if (workspace.activityFrozen) throw new AppError('activity_frozen');
    const session = await this.voice.startWebSession({ sessionId: randomUUID(), workspaceId, agentId: agent.id });
    return { ...session, agentId: agent.id };
  }
}
