import type { WorkflowDefinition } from './workflow-definition';

const AGENT = '11111111-1111-4111-8111-111111111111';
const TEMPLATE = '22222222-2222-4222-8222-222222222222';

/**
 * The README's example journey (decisions.md 37): call → branch on interested (the call was
 * completed or transferred) → the WhatsApp offer, or wait two days → call again. Specs, the
 * README and the journey e2e share it.
 */
export function exampleJourney(agentId = AGENT, templateId = TEMPLATE): WorkflowDefinition {
  return {
    nodes: [
      { id: 'start', kind: 'start', config: {} },
      { id: 'call1', kind: 'call', label: 'First call', config: { agentId } },
      { id: 'interested', kind: 'branch', label: 'Interested?', config: { on: 'call_outcome', cases: [{ name: 'interested', values: ['completed', 'transferred'] }] } },
      { id: 'wa', kind: 'whatsapp', label: 'Send the offer', config: { templateId } },
      { id: 'wait2d', kind: 'wait', label: 'Two days', config: { seconds: 172_800 } },
      { id: 'call2', kind: 'call', label: 'Second call', config: { agentId } },
      { id: 'won', kind: 'end', label: 'offer_sent', config: {} },
      { id: 'lost', kind: 'end', label: 'called_twice', config: {} },
    ],
    edges: [
      { from: 'start', port: 'next', to: 'call1' },
      ...['answered', 'no_answer', 'voicemail', 'failed', 'transferred'].map((port) => ({ from: 'call1', port, to: 'interested' })),
      { from: 'interested', port: 'interested', to: 'wa' },
      { from: 'interested', port: 'else', to: 'wait2d' },
      ...['sent', 'failed', 'replied'].map((port) => ({ from: 'wa', port, to: 'won' })),
      { from: 'wait2d', port: 'next', to: 'call2' },
      ...['answered', 'no_answer', 'voicemail', 'failed', 'transferred'].map((port) => ({ from: 'call2', port, to: 'lost' })),
    ],
  };
}

