import type { RunFacts, RunStatus, StepStatus } from '../domain/run';

/** A run as stored (decisions.md 37.12): its revision and its position (node + visit). */
export interface RunState {
  id: string;
  workspaceId: string;
  workflowId: string;
  revision: number;
  campaignId: string;
  contactId: string;
  status: RunStatus;
  /** RUNNING: the node the step of `visit` runs (or, for a call, is running). WAITING: the node whose step is open (a wait, a message's reply window). */
  nodeId: string;
  visit: number;
  dueAt: Date | null;
  endLabel: string | null;
  failureReason: string | null;
  tags: string[];
  facts: RunFacts;
  startedAt: Date;
  endedAt: Date | null;
  updatedAt: Date;
}

export interface StepState {
  runId: string;
  visit: number;
  nodeId: string;
  kind: string;
  label: string | null;
  status: StepStatus;
  port: string | null;
  error: string | null;
  callId: string | null;
  messageId: string | null;
  startedAt: Date;
  endedAt: Date | null;
}

export interface RunPageQuery {
  offset: number;
  limit: number;
  status?: RunStatus;
}

/** Runs and their steps (tables workflow_runs, workflow_steps). Writes join the caller's transaction. */
export abstract class RunRepository {
  /** Inserts the runs (a lead that has one already is skipped). */
  abstract insertMany(runs: readonly RunState[]): Promise<void>;
  /** The run, locked until the transaction ends. */
  abstract lock(runId: string): Promise<RunState | null>;
  abstract lockByContact(contactId: string): Promise<RunState | null>;
  abstract find(runId: string): Promise<RunState | null>;
  abstract findByContact(contactId: string): Promise<RunState | null>;
  abstract save(run: RunState): Promise<void>;
  /** Writes the step of (runId, visit), replacing what an earlier write of the same visit stored. */
  abstract writeStep(step: StepState): Promise<void>;
  abstract step(runId: string, visit: number): Promise<StepState | null>;
  abstract steps(runId: string): Promise<StepState[]>;
  abstract page(workspaceId: string, workflowId: string, query: RunPageQuery): Promise<{ items: RunState[]; total: number }>;
  /**
   * The sweep's finds: WAITING runs due by `now`, and RUNNING runs at a node of one of `kinds`
   * unchanged since `idleBefore` (their job was lost).
   */
  abstract stuck(now: Date, idleBefore: Date, kinds: readonly string[], limit: number): Promise<Array<{ id: string; visit: number }>>;
  /** RUNNING runs at a call step unchanged since `idleBefore` (the sweep asks whether their contact is still callable). */
  abstract idleCalls(idleBefore: Date, limit: number): Promise<Array<{ id: string; contactId: string }>>;
}

/** The step jobs' queue (queue `workflows`, job `step`, id `wfstep-<runId>-<visit>`). */
export abstract class StepQueue {
  /** A delayed step job (a wait's end), added after the transaction that set the due time committed. */
  abstract later(runId: string, visit: number, delayMs: number): Promise<void>;
  /**
   * The sweep's re-add: each job is added again; one still delayed is promoted, one that ran
   * already (kept for de-duplication) is replaced. The handler's visit check makes any copy harmless.
   */
  abstract readd(jobs: ReadonlyArray<{ runId: string; visit: number }>): Promise<void>;
  /**
   * One more step job for the run's visit under an id of its own (`<step job id>-<cause>`), added
   * whatever the state of the visit's job: that job may be running right now and about to end with
   * nothing done, having looked before the cause happened (decisions.md 37.17). Added once per cause;
   * the handler's visit check makes it harmless when the visit's job moved the run first.
   */
  abstract wake(runId: string, visit: number, cause: string): Promise<void>;
}

/** A webhook step's POST (signed like the result webhooks). */
export abstract class StepWebhooks {
  /** Posts `body`; answers null when the receiver took it (2xx), else what went wrong. */
  abstract post(workspaceId: string, url: string, webhookId: string, body: string): Promise<string | null>;
}
