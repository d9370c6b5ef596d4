import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { CallAnalysed, CallAnalysedEvent, CallLog } from '@outreach/calls';
import { CampaignJob, CampaignQueue, JourneyContact, JourneyContacts } from '@outreach/campaigns';
import { AppConfig, AppError, Clock, isAppError, Outbox, OutboxJob, UnitOfWork } from '@outreach/core';
import type { JourneyCallEnded, JourneySteps } from '@outreach/engine';
import { MessageEvent, MessageLegs, SendMessage } from '@outreach/messaging';
import { leadFinalJob } from '@outreach/results';
import {
  allPortsMeet,
  callPortOf,
  follow,
  FINAL_RUN_STATUSES,
  immediatePort,
  messageKey,
  messagePortOf,
  nodeById,
  stepJobId,
  waitDueAt,
} from '../domain/run';
import { BranchConfig, CallConfig, MessageConfig, NEXT_PORT, TagConfig, WaitConfig, WebhookConfig, WorkflowDefinition, WorkflowNode } from '../domain/workflow-definition';
import { RunRepository, RunState, StepQueue, StepState, StepWebhooks } from './runs.ports';
import { WorkflowRepository } from './workflows.ports';
import { WorkflowJob, WorkflowQueue } from './workflow-jobs';

/** Contacts whose runs start per transaction when a campaign admits them. */
const ADMIT_BATCH = 500;
/** Immediate steps (start, tag, branch) one job runs at most before it hands on to a job of its own (a guard against runaway graphs). */
const MAX_STEPS_PER_JOB = 50;
/** A run at a call step unchanged this long: the sweep asks whether its contact can still be called. */
export const CALL_IDLE_MS = 3_600_000;

export function stepJob(runId: string, visit: number): OutboxJob {
  return { queue: WorkflowQueue.Workflows, name: WorkflowJob.Step, payload: { runId, visit }, jobId: stepJobId(runId, visit) };
}

function dispatchJob(campaignId: string): OutboxJob {
  return { queue: CampaignQueue.Campaigns, name: CampaignJob.Dispatch, payload: { campaignId } };
}

/** What a message or webhook step did outside the transaction, applied by the transaction that follows. */
interface Effect {
  nodeId: string;
  visit: number;
  status: 'DONE' | 'FAILED';
  error: string | null;
  messageId: string | null;
  /** A message step: accepted by the provider. */
  sent: boolean;
}

export type StepReport = 'stale' | 'not_due' | 'advanced';

/**
 * Durable runs (decisions.md 37.12). A run moves through its revision's graph one step job at a
 * time: the job `{runId, visit}` (id `wfstep-<runId>-<visit>`) locks the run and does nothing
 * unless the run is still at that visit, so a job run twice changes nothing twice. Each transition
 * writes the step row, the run's next position and the next job (outbox) in one transaction.
 * Immediate steps (start, tag, branch) run inside the job that reaches them; a call makes the
 * contact due for the engine, whose settlement hands the outcome back (callEnded); a wait stores
 * its due time and adds a delayed job; a message or webhook step does its effect before its
 * transaction, under a key of the run and visit (SendMessage answers a replayed key with the same
 * message; a webhook carries `webhook-id: wf-<runId>-<visit>`). The end makes the contact final
 * and, for an API lead, writes its result.
 */
@Injectable()
export class JourneyRuns extends CallAnalysed implements JourneySteps {
  private readonly logger = new Logger('JourneyRuns');
  private readonly definitions = new Map<string, WorkflowDefinition>();

  constructor(
    private readonly runs: RunRepository,
    private readonly workflows: WorkflowRepository,
    private readonly contacts: JourneyContacts,
    private readonly queue: StepQueue,
    private readonly webhooks: StepWebhooks,
    private readonly send: SendMessage,
    private readonly legs: MessageLegs,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly calls: CallLog,
    private readonly config: AppConfig,
  ) {
    super();
  }

  /** Starts a run for every PENDING contact of the journey campaign, in batches (dispatch calls it). */
  async admit(campaignId: string): Promise<void> {
    for (;;) {
      const admitted = await this.uow.run(async () => {
        const contacts = await this.contacts.admit(campaignId, ADMIT_BATCH);
        if (contacts.length === 0) return 0;
        const now = this.clock.now();
        const first = contacts[0];
        const workflow = first.workflowId ? await this.workflows.find(first.workspaceId, first.workflowId) : null;
        if (!workflow) {
          // The campaign's workflow was deleted since it started: its leads end, FAILED.
          for (const c of contacts) await this.contacts.end(c.id, 'FAILED', 'workflow_not_found', now);
          await this.outbox.enqueue(...resultJobs(contacts), dispatchJob(campaignId));
          return contacts.length;
        }
        const props = workflow.toProps();
        const start = props.definition.nodes.find((n) => n.kind === 'start')!;
        const runs: RunState[] = contacts.map((c) => ({
          id: randomUUID(),
          workspaceId: c.workspaceId,
          workflowId: props.id,
          revision: props.revision,
          campaignId,
          contactId: c.id,
          status: 'RUNNING',
          nodeId: start.id,
          visit: 1,
          dueAt: null,
          endLabel: null,
          failureReason: null,
          tags: [],
          facts: {},
          startedAt: now,
          endedAt: null,
          updatedAt: now,
        }));
        await this.runs.insertMany(runs);
        await this.outbox.enqueue(...runs.map((r) => stepJob(r.id, 1)));
        return contacts.length;
      });
      if (admitted < ADMIT_BATCH) return;
    }
  }

  async callAgent(contactId: string): Promise<string | null> {
    const run = await this.runs.findByContact(contactId);
    if (!run || run.status !== 'RUNNING') return null;
    const node = nodeById(await this.definition(run), run.nodeId);
    return node.kind === 'call' ? (node.config as CallConfig).agentId : null;
  }

  /** Inside the engine's settlement transaction: the call step ends, the run moves on (its next job is returned). */
  async callEnded(call: JourneyCallEnded): Promise<OutboxJob[]> {
    const run = await this.runs.lockByContact(call.contactId);
    if (!run || run.status !== 'RUNNING') return [];
    const definition = await this.definition(run);
    const node = nodeById(definition, run.nodeId);
    const step = await this.runs.step(run.id, run.visit);
    if (node.kind !== 'call' || !step || step.status !== 'RUNNING') return [];
    const now = this.clock.now();
    const port = callPortOf(call.outcome);
    await this.runs.writeStep({ ...step, status: 'DONE', port, callId: call.callId, endedAt: now });
    const next = follow(definition, node.id, port);
    // An answered call is analysed (extraction, evaluation): the next step waits for it (decisions.md 37.20).
    const awaitingAnalysis = port === 'answered' ? call.callId : null;
    const facts = { ...run.facts, lastCallOutcome: call.outcome, lastCallId: call.callId, awaitingAnalysis, extraction: {}, evaluation: {} };
    await this.runs.save({ ...run, nodeId: next.id, visit: run.visit + 1, facts, updatedAt: now });
    return [stepJob(run.id, run.visit + 1)];
  }

  /**
   * The calls worker: a call's analysis is final (decisions.md 37.20). A run waiting for it gets its
   * step job again; a FAILED analysis is recorded as no values first (its branches take `else`).
   */
  async analysed(event: CallAnalysedEvent): Promise<void> {
    if (!event.contactId) return;
    const run = await this.runs.findByContact(event.contactId);
    if (!run || run.status !== 'RUNNING' || run.facts.awaitingAnalysis !== event.callId) return;
    if (event.analysisStatus === 'FAILED') {
      const taken = await this.uow.run(() => this.takeAnalysis(run.id, run.visit, event.callId, { extraction: {}, evaluation: {} }));
      if (!taken) return;
    }
    // Not readd: the visit's own job may be running now, past its look at the still PENDING analysis.
    await this.queue.wake(run.id, run.visit, `analysed-${event.callId}`);
  }

  /** The step job: runs the run's step at `visit` (nothing when the run has moved on). */
  async advance(runId: string, visit: number): Promise<StepReport> {
    let run = await this.runs.find(runId);
    if (!run || run.visit !== visit || FINAL_RUN_STATUSES.includes(run.status)) return 'stale';
    if (run.status === 'WAITING') {
      if (run.dueAt && run.dueAt.getTime() > this.clock.now().getTime()) return 'not_due';
      const woke = await this.uow.run(() => this.wake(runId, visit));
      if (!woke) return 'stale';
      run = woke;
    }
    const awaiting = run.status === 'RUNNING' ? run.facts.awaitingAnalysis : null;
    if (awaiting) {
      // The last call's analysis is not final yet: the calls worker re-adds this job when it is (37.20).
      const values = await this.analysisOf(run.workspaceId, awaiting);
      if (!values) return 'not_due';
      const taken = await this.uow.run(() => this.takeAnalysis(runId, visit, awaiting, values));
      if (!taken) return 'stale';
      run = taken;
    }
    const definition = await this.definition(run);
    const node = nodeById(definition, run.nodeId);
    const effect = run.status === 'RUNNING' ? await this.effectOf(run, node) : null;
    const moved = await this.uow.run(async () => {
      const locked = await this.runs.lock(runId);
      if (!locked || locked.visit !== visit || locked.status !== 'RUNNING' || locked.nodeId !== node.id) return false;
      // A call step already handed to the engine (this job ran before): its settlement moves the run on.
      if (node.kind === 'call' && (await this.runs.step(runId, visit))?.status === 'RUNNING') return false;
      return { wait: await this.walk(locked, definition, visit, effect) };
    });
    if (!moved) return 'stale';
    if (moved.wait) {
      // After commit: the wait's delayed job. Lost (the process died first, Redis flushed): the sweep adds it once due.
      const { visit: next, dueAt } = moved.wait;
      await this.queue.later(runId, next, Math.max(0, dueAt.getTime() - this.clock.now().getTime())).catch((error: Error) => this.logger.warn(`run ${runId}: delayed job not added (${error.message}); the sweep adds it when due`));
    }
    return 'advanced';
  }

  /**
   * The sweep (decisions.md 37.12): re-adds the job of every WAITING run past its due time and of
   * every RUNNING run (not at a call) idle for `idleMs` (WORKFLOW_RUN_IDLE_MS) — a Redis flush or a
   * killed worker lost it; ends the runs whose call step can no longer happen (the contact became
   * final without a call: do-not-call). Returns how many jobs it added.
   */
  async sweep(idleMs = this.config.workflowRunIdleMs, limit = 1000): Promise<number> {
    const now = this.clock.now();
    const stuck = await this.runs.stuck(now, new Date(now.getTime() - idleMs), ['start', 'tag', 'branch', 'whatsapp', 'email', 'webhook', 'end'], limit);
    if (stuck.length > 0) await this.queue.readd(stuck.map((s) => ({ runId: s.id, visit: s.visit })));
    for (const idle of await this.runs.idleCalls(new Date(now.getTime() - CALL_IDLE_MS), limit)) {
      await this.uow.run(async () => {
        const contact = await this.contacts.find(idle.contactId);
        if (!contact || ['PENDING', 'IN_PROGRESS', 'RETRY_SCHEDULED'].includes(contact.status)) return;
        const run = await this.runs.lock(idle.id);
        if (!run || run.status !== 'RUNNING') return;
        const step = await this.runs.step(run.id, run.visit);
        if (step) await this.runs.writeStep({ ...step, status: 'FAILED', error: contact.status.toLowerCase(), endedAt: this.clock.now() });
        await this.runs.save({ ...run, status: 'FAILED', failureReason: contact.status.toLowerCase(), endedAt: this.clock.now(), updatedAt: this.clock.now() });
      });
    }
    return stuck.length;
  }

  /**
   * Messaging delivered a reply to one of our messages (decisions.md 37.21): when it answers a
   * message step's send (key `wf-<runId>-<visit>`) whose reply window is still open, the step leaves
   * through `replied` at once and the run's next job is re-added (not after the window).
   */
  async messageEvent(event: MessageEvent): Promise<void> {
    if (event.type !== 'replied') return;
    const key = await this.legs.keyOf(event.messageId);
    const match = key ? /^wf-([0-9a-f-]{36})-(\d+)$/.exec(key.idempotencyKey) : null;
    if (!match) return;
    const runId = match[1];
    const sentVisit = Number(match[2]);
    const moved = await this.uow.run(async () => {
      const run = await this.runs.lock(runId);
      if (!run || run.status !== 'WAITING' || run.visit !== sentVisit + 1) return false;
      const definition = await this.definition(run);
      const node = nodeById(definition, run.nodeId);
      const open = await this.runs.step(run.id, sentVisit);
      if ((node.kind !== 'whatsapp' && node.kind !== 'email') || !open || open.status !== 'RUNNING' || open.nodeId !== node.id) return false;
      const now = this.clock.now();
      const port = messagePortOf(node.config as MessageConfig, { sent: true, replyAfterSeconds: 0 });
      await this.runs.writeStep({ ...open, status: 'DONE', port, endedAt: now });
      const next = follow(definition, node.id, port);
      await this.runs.save({ ...run, status: 'RUNNING', nodeId: next.id, dueAt: null, facts: { ...run.facts, lastReply: run.facts.lastReply ?? 'replied' }, updatedAt: now });
      return true;
    });
    // The window's delayed job has this job id: re-adding promotes it (lost: the sweep re-adds the idle run).
    if (moved) await this.queue.readd([{ runId, visit: sentVisit + 1 }]);
  }

  /** The call's analysis values once final (DONE; SKIPPED or a vanished call: none), null while it is pending or may be retried. */
  private async analysisOf(workspaceId: string, callId: string): Promise<{ extraction: Record<string, unknown>; evaluation: Record<string, unknown> } | null> {
    const call = await this.calls.get(workspaceId, callId);
    if (!call || call.analysisStatus === 'SKIPPED') return { extraction: {}, evaluation: {} };
    if (call.analysisStatus !== 'DONE') return null;
    return { extraction: call.extraction ?? {}, evaluation: call.evaluation ?? {} };
  }

  /** Under the run's lock: the run still waits at `visit` for that call's analysis; its values become the run's facts. */
  private async takeAnalysis(
    runId: string,
    visit: number,
    callId: string,
    values: { extraction: Record<string, unknown>; evaluation: Record<string, unknown> },
  ): Promise<RunState | null> {
    const run = await this.runs.lock(runId);
    if (!run || run.visit !== visit || run.status !== 'RUNNING' || run.facts.awaitingAnalysis !== callId) return null;
    const taken: RunState = { ...run, facts: { ...run.facts, awaitingAnalysis: null, ...values }, updatedAt: this.clock.now() };
    await this.runs.save(taken);
    return taken;
  }

  /** A WAITING run whose time came: its open step leaves through its port, the run is RUNNING at the next node (same visit). */
  private async wake(runId: string, visit: number): Promise<RunState | null> {
    const run = await this.runs.lock(runId);
    const now = this.clock.now();
    if (!run || run.visit !== visit || run.status !== 'WAITING' || (run.dueAt && run.dueAt.getTime() > now.getTime())) return null;
    const definition = await this.definition(run);
    const node = nodeById(definition, run.nodeId);
    const open = await this.runs.step(run.id, visit - 1);
    let port = NEXT_PORT;
    const facts = { ...run.facts };
    if (node.kind === 'whatsapp' || node.kind === 'email') {
      const contact = await this.contacts.find(run.contactId);
      const address = contact ? (node.kind === 'email' ? emailOf(contact) : contact.phone) : null;
      const since = open?.startedAt ?? run.startedAt;
      const replied = address !== null && (await this.legs.repliedSince(run.workspaceId, node.kind === 'email' ? 'EMAIL' : 'WHATSAPP', address, since));
      port = messagePortOf(node.config as MessageConfig, { sent: true, replyAfterSeconds: replied ? 0 : null });
      if (replied) facts.lastReply = facts.lastReply ?? 'replied';
    }
    if (open) await this.runs.writeStep({ ...open, status: 'DONE', port, endedAt: now });
    const next = follow(definition, node.id, port);
    const woke: RunState = { ...run, status: 'RUNNING', nodeId: next.id, dueAt: null, facts, updatedAt: now };
    await this.runs.save(woke);
    return woke;
  }

  /** A message or webhook step's effect, outside any transaction (keyed by run and visit: a re-run repeats nothing). */
  private async effectOf(run: RunState, node: WorkflowNode): Promise<Effect | null> {
    const base = { nodeId: node.id, visit: run.visit };
    if (node.kind === 'webhook') {
      const body = JSON.stringify({
        type: 'workflow.step',
        runId: run.id,
        workflowId: run.workflowId,
        campaignId: run.campaignId,
        leadId: run.contactId,
        nodeId: node.id,
        label: node.label ?? null,
        tags: run.tags,
      });
      const error = await this.webhooks.post(run.workspaceId, (node.config as WebhookConfig).url, messageKey(run.id, run.visit), body);
      return { ...base, status: error ? 'FAILED' : 'DONE', error, messageId: null, sent: error === null };
    }
    if (node.kind !== 'whatsapp' && node.kind !== 'email') return null;
    const contact = await this.contacts.find(run.contactId);
    if (!contact) return { ...base, status: 'FAILED', error: 'lead_not_found', messageId: null, sent: false };
    const config = node.config as MessageConfig;
    const channel = node.kind === 'email' ? 'EMAIL' : 'WHATSAPP';
    const to = channel === 'EMAIL' ? emailOf(contact) : contact.phone;
    if (!to) return { ...base, status: 'FAILED', error: 'no_email_address', messageId: null, sent: false };
    const senderId = channel === 'EMAIL' ? (await this.legs.emailDefaults(run.workspaceId))?.senderId : await this.legs.whatsappSender(run.workspaceId);
    const fields = { ...contact.fields, name: contact.name ?? contact.fields.name, phone: contact.phone };
    try {
      const { outcome, message } = await this.send.send({
        workspaceId: run.workspaceId,
        channel,
        senderId: senderId ?? '',
        templateId: config.templateId,
        to,
        variables: { contact: fields },
        idempotencyKey: messageKey(run.id, run.visit),
      });
      // Not decided yet (the provider refused for now, or another job holds the send): the job is retried.
      if (outcome === 'retry_later' || outcome === 'in_flight') throw new Error(`message step ${run.id}/${run.visit}: ${outcome}`);
      return { ...base, status: outcome === 'sent' ? 'DONE' : 'FAILED', error: outcome === 'sent' ? null : 'refused', messageId: message.id, sent: outcome === 'sent' };
    } catch (error) {
      if (!isAppError(error)) throw error;
      // A refusal with a code (opted out, no sender, template not approved…): the step fails, the run leaves through `failed`.
      return { ...base, status: 'FAILED', error: (error as AppError).code, messageId: null, sent: false };
    }
  }

  /**
   * Runs steps from the run's position, inside the job's transaction, until one needs the outside
   * world: a call (the engine), a wait (time), a message or webhook at a later visit (a job of its
   * own), or the end.
   */
  private async walk(start: RunState, definition: WorkflowDefinition, jobVisit: number, effect: Effect | null): Promise<{ visit: number; dueAt: Date } | null> {
    let run = start;
    const now = this.clock.now();
    const jobs: OutboxJob[] = [];
    let wait: { visit: number; dueAt: Date } | null = null;
    for (let taken = 0; ; taken++) {
      const node = nodeById(definition, run.nodeId);
      const step: StepState = {
        runId: run.id,
        visit: run.visit,
        nodeId: node.id,
        kind: node.kind,
        label: node.label ?? null,
        status: 'RUNNING',
        port: null,
        error: null,
        callId: null,
        messageId: null,
        startedAt: now,
        endedAt: null,
      };
      if (taken >= MAX_STEPS_PER_JOB) {
        jobs.push(stepJob(run.id, run.visit));
        break;
      }
      if (node.kind === 'end') {
        await this.runs.writeStep({ ...step, status: 'DONE', endedAt: now });
        run = { ...run, status: 'DONE', endLabel: node.label ?? node.id, endedAt: now };
        await this.finish(run, 'COMPLETED', jobs);
        break;
      }
      if (node.kind === 'call') {
        await this.runs.writeStep(step);
        // The engine dials it (reservation, windows, DNC, wallet); its settlement calls callEnded.
        if (!(await this.contacts.callDue(run.contactId, now))) {
          await this.runs.writeStep({ ...step, status: 'FAILED', error: 'lead_not_callable', endedAt: now });
          run = { ...run, status: 'FAILED', failureReason: 'lead_not_callable', endedAt: now };
          await this.finish(run, 'FAILED', jobs);
          break;
        }
        jobs.push(dispatchJob(run.campaignId));
        break;
      }
      if (node.kind === 'wait') {
        const contact = await this.contacts.find(run.contactId);
        const dueAt = waitDueAt(node.config as WaitConfig, now, contact?.timezone ?? 'UTC');
        await this.runs.writeStep(step);
        run = { ...run, status: 'WAITING', dueAt, visit: run.visit + 1 };
        wait = { visit: run.visit, dueAt };
        break;
      }
      if (node.kind === 'whatsapp' || node.kind === 'email' || node.kind === 'webhook') {
        if (!effect || effect.nodeId !== node.id || effect.visit !== run.visit || run.visit !== jobVisit) {
          // Its effect happens outside a transaction: in a job of its own.
          jobs.push(stepJob(run.id, run.visit));
          break;
        }
        const done = { ...step, status: effect.status, error: effect.error, messageId: effect.messageId };
        if (node.kind !== 'webhook' && effect.sent && !allPortsMeet(definition, node.id)) {
          // The reply window decides between `replied` and `sent`: the step stays open until it closes.
          await this.runs.writeStep(done.status === 'DONE' ? { ...done, status: 'RUNNING' } : done);
          const seconds = (node.config as MessageConfig).replyWithinSeconds ?? 86_400;
          const dueAt = new Date(now.getTime() + seconds * 1000);
          run = { ...run, status: 'WAITING', dueAt, visit: run.visit + 1 };
          wait = { visit: run.visit, dueAt };
          break;
        }
        const port = node.kind === 'webhook' ? NEXT_PORT : messagePortOf(node.config as MessageConfig, { sent: effect.sent, replyAfterSeconds: null });
        await this.runs.writeStep({ ...done, port, endedAt: now });
        run = { ...run, nodeId: follow(definition, node.id, port).id, visit: run.visit + 1 };
        continue;
      }
      // start, tag, branch
      const port = immediatePort(node, {
        lastCallOutcome: run.facts.lastCallOutcome ?? null,
        lastReply: run.facts.lastReply ?? null,
        extraction: run.facts.extraction ?? {},
        evaluation: run.facts.evaluation ?? {},
        // The lead's fields are read only for a branch on one.
        leadFields: node.kind === 'branch' && (node.config as BranchConfig).on === 'lead_field' ? ((await this.contacts.find(run.contactId))?.fields ?? {}) : {},
      })!;
      const tags = node.kind === 'tag' && !run.tags.includes((node.config as TagConfig).tag) ? [...run.tags, (node.config as TagConfig).tag] : run.tags;
      await this.runs.writeStep({ ...step, status: 'DONE', port, endedAt: now });
      run = { ...run, tags, nodeId: follow(definition, node.id, port).id, visit: run.visit + 1 };
    }
    await this.runs.save({ ...run, updatedAt: now });
    await this.outbox.enqueue(...jobs);
    return wait;
  }

  /** The run ended: the contact becomes final, an API lead gets its result, the campaign may complete. */
  private async finish(run: RunState, outcome: 'COMPLETED' | 'FAILED', jobs: OutboxJob[]): Promise<void> {
    const now = this.clock.now();
    const contact = await this.contacts.find(run.contactId);
    await this.contacts.end(run.contactId, outcome, run.status === 'DONE' ? null : (run.failureReason ?? 'failed'), now);
    if (contact && contact.source === 'API') jobs.push(leadFinalJob(run.contactId, run.facts.lastCallId ?? null));
    jobs.push(dispatchJob(run.campaignId));
  }

  private async definition(run: RunState): Promise<WorkflowDefinition> {
    const key = `${run.workflowId}:${run.revision}`;
    let definition = this.definitions.get(key);
    if (!definition) {
      definition = (await this.workflows.revision(run.workflowId, run.revision)) ?? undefined;
      if (!definition) throw new Error(`run ${run.id}: revision ${run.revision} of workflow ${run.workflowId} is missing`);
      this.definitions.set(key, definition);
    }
    return definition;
  }
}

function emailOf(contact: JourneyContact): string | null {
  const key = Object.keys(contact.fields).find((k) => k.trim().toLowerCase() === 'email');
  const value = key ? contact.fields[key].trim() : '';
  return /^[^\s@]+@[^\s@]+$/.test(value) ? value : null;
}

function resultJobs(contacts: readonly JourneyContact[]): OutboxJob[] {
  return contacts.filter((c) => c.source === 'API').map((c) => leadFinalJob(c.id));
}
