// Public surface of the workflows module (issue 13): workflow definitions, revisions, journeys.
import { defineMigrations } from '@outreach/platform';
export * from './workflows.errors';
export * from './workflows.config';
import { Workflows1763700011400 } from './infrastructure/migrations/1763700011400-workflows';
import { WorkflowRuns1763700011700 } from './infrastructure/migrations/1763700011700-workflow-runs';

export { WorkflowsCoreModule, WorkflowsModule, WorkflowsWorkerModule } from './workflows.module';
export { Workflows } from './application/workflows';
export { WorkflowView, WorkflowSummaryView } from './application/workflow-view';
export { WorkflowDefinition, WorkflowNode, WorkflowEdge, NODE_KINDS, MAX_NODES, MAX_EDGES } from './domain/workflow-definition';
export { WORKFLOW_STATUSES, WorkflowStatus } from './domain/workflow';
export { exampleJourney } from './domain/example-journey';
export { JourneyRuns, StepReport } from './application/journey-runs';
export { RunViews, JourneyView, JourneyStepView, RunView, RunSummaryView } from './application/run-views';
export { WorkflowJob, WorkflowQueue } from './application/workflow-jobs';
export { RUN_STATUSES, RunStatus, STEP_STATUSES, stepJobId } from './domain/run';
export const WORKFLOWS_MIGRATIONS = defineMigrations('workflows', [Workflows1763700011400, WorkflowRuns1763700011700]);
