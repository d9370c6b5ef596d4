import type { ValidationIssue } from '@outreach/core';
import type { FlowGraph } from './agent.types';

/**
 * The graph rules the request DTO cannot express: node ids are unique, edge ids are unique, and
 * every edge's source and target name an existing node. Returns one issue per violation, with the
 * path under `at` (e.g. `flowGraph.edges.2.target`); an empty list means the graph is sound.
 */
export function flowGraphIssues(graph: FlowGraph, at: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const nodeIds = new Set<string>();
  graph.nodes.forEach((node, i) => {
    if (nodeIds.has(node.id)) {
      issues.push({ path: `${at}.nodes.${i}.id`, message: `duplicate node id ${JSON.stringify(node.id)}` });
    }
    nodeIds.add(node.id);
  });
  const edgeIds = new Set<string>();
  graph.edges.forEach((edge, i) => {
    if (edgeIds.has(edge.id)) {
      issues.push({ path: `${at}.edges.${i}.id`, message: `duplicate edge id ${JSON.stringify(edge.id)}` });
    }
    edgeIds.add(edge.id);
    for (const end of ['source', 'target'] as const) {
      if (!nodeIds.has(edge[end])) {
        issues.push({ path: `${at}.edges.${i}.${end}`, message: `${end} ${JSON.stringify(edge[end])} names no node of the graph` });
      }
    }
  });
  return issues;
}
