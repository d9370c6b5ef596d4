import { Injectable } from '@nestjs/common';
import { CallLog } from '@outreach/calls';
import { CampaignExecution } from '@outreach/campaigns';
import { AppError } from '@outreach/core';
import { LeadJourneys, LeadJourneysBinding } from '@outreach/results';
import { actionKindOf, RunStatus } from '../domain/run';
import type { NodeKind } from '../domain/workflow-definition';
import { RunRepository, RunState, StepState } from './runs.ports';
import { Workflows } from './workflows';

/** A journey step as the contract shows it (lead result `journey.steps[]`). */
export interface JourneyStepView {
  nodeId: string;
  label: string | null;
  type: string;
  actionKind: string;
  status: string;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
  call: {
    id: string;
    status: string;
    outcome: string | null;
    providerDisposition: string | null;
    answeredAt: string | null;
    endedAt: string | null;
    durationMs: number | null;
    extraction: Record<string, unknown> | null;
  } | null;
  port: string | null;
}

/** The lead result's `journey` object, exactly the contract's members. */
export interface JourneyView {
  runId: string;
  workflowId: string;
  status: RunStatus;
  endLabel: string | null;
  failureReason: string | null;
  startedAt: string;
  endedAt: string | null;
  tags: string[];
  steps: JourneyStepView[];
}

/** A run in the runs API: the journey plus where it is. */
export interface RunSummaryView {
  runId: string;
  workflowId: string;
  revision: number;
  campaignId: string;
  leadId: string;
  status: RunStatus;
  nodeId: string;
  visit: number;
  dueAt: string | null;
  endLabel: string | null;
  failureReason: string | null;
  tags: string[];
  startedAt: string;
  endedAt: string | null;
}

export type RunView = RunSummaryView & { steps: JourneyStepView[] };

/** Reads of runs (decisions.md 37.13): the runs API and the lead result's journey. */
@Injectable()
export class RunViews implements LeadJourneys {
  constructor(
    private readonly runs: RunRepository,
    private readonly workflows: Workflows,
    private readonly campaigns: CampaignExecution,
    private readonly calls: CallLog,
    private readonly results: LeadJourneysBinding,
  ) {}

  bindResults(): void {
    this.results.bind(this);
  }

  /** GET /workflows/{id}/runs: 404 workflow_not_found for an unknown workflow. */
  async page(workspaceId: string, workflowId: string, query: { offset: number; limit: number; status?: RunStatus }): Promise<{ items: RunSummaryView[]; total: number }> {
    await this.workflows.get(workspaceId, workflowId);
    const { items, total } = await this.runs.page(workspaceId, workflowId, query);
    return { items: items.map(summaryOf), total };
  }

  /** GET /workflows/{id}/runs/{runId}. */
  async get(workspaceId: string, workflowId: string, runId: string): Promise<RunView> {
    await this.workflows.get(workspaceId, workflowId);
    const run = await this.runs.find(runId);
    if (!run || run.workspaceId !== workspaceId || run.workflowId !== workflowId) throw new AppError('workflow_run_not_found', { message: `no run ${runId} of workflow ${workflowId}` });
    return { ...summaryOf(run), steps: await this.steps(run) };
  }

  /** GET /campaigns/{id}/leads/{leadId}/journey: 400 campaign_has_no_journey for a campaign of another channel. */
  async byLead(workspaceId: string, campaignId: string, leadId: string): Promise<RunView> {
    const campaign = await this.campaigns.campaign(campaignId).catch(() => null);
    if (!campaign || campaign.workspaceId !== workspaceId) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    if (campaign.channel !== 'CUSTOM' || !campaign.workflowId) throw new AppError('campaign_has_no_journey', { message: `campaign ${campaignId} is a ${campaign.channel} campaign: it runs no workflow` });
    const run = await this.runs.findByContact(leadId);
    if (!run || run.campaignId !== campaignId) throw new AppError('workflow_run_not_found', { message: `lead ${leadId} has no run in campaign ${campaignId}` });
    return { ...summaryOf(run), steps: await this.steps(run) };
  }

  /** The lead result's `journey` (null: the lead has no run). */
  async journeyOf(contactId: string): Promise<Record<string, unknown> | null> {
    const run = await this.runs.findByContact(contactId);
    if (!run) return null;
    const journey: JourneyView = {
      runId: run.id,
      workflowId: run.workflowId,
      status: run.status,
      endLabel: run.endLabel,
      failureReason: run.failureReason,
      startedAt: run.startedAt.toISOString(),
      endedAt: run.endedAt?.toISOString() ?? null,
      tags: run.tags,
      steps: await this.steps(run),
    };
    return journey as unknown as Record<string, unknown>;
  }

  private async steps(run: RunState): Promise<JourneyStepView[]> {
    const steps = await this.runs.steps(run.id);
    return Promise.all(steps.map((s) => this.stepView(run, s)));
  }

  private async stepView(run: RunState, s: StepState): Promise<JourneyStepView> {
    const call = s.callId ? await this.calls.get(run.workspaceId, s.callId) : null;
    return {
      nodeId: s.nodeId,
      label: s.label,
      type: s.kind,
      actionKind: actionKindOf(s.kind as NodeKind),
      status: s.status,
      error: s.error,
      startedAt: s.startedAt.toISOString(),
      endedAt: s.endedAt?.toISOString() ?? null,
      call: call
        ? {
            id: call.id,
            status: call.status,
            outcome: call.outcome,
            providerDisposition: call.providerDisposition,
            answeredAt: call.answeredAt,
            endedAt: call.endedAt,
            durationMs: call.durationMs,
            extraction: call.extraction,
          }
        : null,
      port: s.port,
    };
  }
}

function summaryOf(run: RunState): RunSummaryView {
  return {
    runId: run.id,
    workflowId: run.workflowId,
    revision: run.revision,
    campaignId: run.campaignId,
    leadId: run.contactId,
    status: run.status,
    nodeId: run.nodeId,
    visit: run.visit,
    dueAt: run.dueAt?.toISOString() ?? null,
    endLabel: run.endLabel,
    failureReason: run.failureReason,
    tags: run.tags,
    startedAt: run.startedAt.toISOString(),
    endedAt: run.endedAt?.toISOString() ?? null,
  };
}
