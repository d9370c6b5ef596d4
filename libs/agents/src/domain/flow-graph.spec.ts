import { flowGraphIssues } from './flow-graph';
import type { FlowGraph } from './agent.types';

const node = (id: string) => ({ id, type: 'step' as const, title: `Step ${id}` });
const edge = (id: string, source: string, target: string) => ({ id, source, target });

describe('flowGraphIssues (graph rules the DTO cannot express)', () => {
  it('accepts a sound graph, an empty one, and cycles', () => {
    const graph: FlowGraph = {
      nodes: [node('a'), node('b'), { id: 'c', type: 'end', title: 'Bye' }],
      edges: [edge('e1', 'a', 'b'), edge('e2', 'b', 'c'), edge('e3', 'b', 'a')],
    };
    expect(flowGraphIssues(graph, 'flowGraph')).toEqual([]);
    expect(flowGraphIssues({ nodes: [], edges: [] }, 'flowGraph')).toEqual([]);
  });

  it('reports an edge whose target or source names no node, with the path of the member', () => {
    const graph: FlowGraph = {
      nodes: [node('a'), node('b')],
      edges: [edge('e1', 'a', 'b'), edge('e2', 'b', 'a'), edge('e3', 'a', 'ghost'), edge('e4', 'nowhere', 'b')],
    };
    expect(flowGraphIssues(graph, 'flowGraph').map((i) => i.path)).toEqual(['flowGraph.edges.2.target', 'flowGraph.edges.3.source']);
  });

  it('reports duplicate node ids and duplicate edge ids at the second occurrence', () => {
    const graph: FlowGraph = {
      nodes: [node('a'), node('b'), node('a')],
      edges: [edge('e1', 'a', 'b'), edge('e1', 'b', 'a')],
    };
    expect(flowGraphIssues(graph, 'studioConfig.flowGraph').map((i) => i.path)).toEqual([
      'studioConfig.flowGraph.nodes.2.id',
      'studioConfig.flowGraph.edges.1.id',
    ]);
  });

  it('an edge may only reference nodes, not other edges', () => {
    const graph: FlowGraph = { nodes: [node('a')], edges: [edge('x', 'a', 'a'), edge('y', 'a', 'x')] };
    expect(flowGraphIssues(graph, 'flowGraph')).toEqual([
      { path: 'flowGraph.edges.1.target', message: 'target "x" names no node of the graph' },
    ]);
  });
});
