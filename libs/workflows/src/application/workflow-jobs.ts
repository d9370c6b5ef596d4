/** The workflows module's queue: `workflows` / `step` `{runId, visit}`, job id `wfstep-<runId>-<visit>` (decisions.md 37.12). */
export enum WorkflowQueue {
  Workflows = 'workflows',
}

export enum WorkflowJob {
  Step = 'step',
}

export interface StepPayload {
  runId: string;
  visit: number;
}
