/**
 * The vocabulary of an agent (spec: "Agent", "Abilities", "Flow graph"). Plain data shapes, no
 * bounds: the request DTOs hold the bounds, the aggregate holds the invariants.
 */
export const AGENT_STATUSES = ['PROVISIONING', 'ACTIVE', 'archived'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const AGENT_TYPES = ['OUTBOUND', 'INBOUND'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

export const END_CALL_TRIGGERS = ['CALLER_GOODBYE', 'GOAL_COMPLETED', 'IDLE', 'REMOVE_FROM_LIST'] as const;
export const TRANSFER_TRIGGERS = ['CALLER_ASKS_HUMAN', 'FRUSTRATED', 'ASKS_MANAGER', 'UNKNOWN_QUESTION', 'BILLING'] as const;
export const EXTRACTION_KEY_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'date', 'datetime'] as const;
export const GENDERS = ['female', 'male', 'neutral'] as const;
export const TONES = ['warm_professional', 'formal', 'casual', 'assertive', 'empathetic'] as const;
export const GUARDRAILS = [
  'no_fabrication',
  'no_scope_creep',
  'no_ai_disclosure',
  'no_medical_legal_advice',
  'no_pressure_selling',
  'data_privacy',
  'script_fidelity',
] as const;
export const CLOSING_BEHAVIORS = ['confirm_and_end', 'transfer', 'callback', 'custom'] as const;
export const LANGUAGE_SWITCHING = ['fast', 'balanced', 'strict'] as const;
export const PROMPT_SPECS = [1, 2] as const;
export const BOOKING_TYPES = ['site_visit', 'online_meet', 'phone_callback'] as const;
export const FLOW_NODE_TYPES = ['step', 'branch', 'end'] as const;
export const OVERRIDE_VALUES = {
  namesPolicy: ['use_name', 'no_names'],
  identityConfirm: ['by_name', 'by_enquiry'],
  silenceHandling: ['ask', 'reengage'],
  endCallEtiquette: ['close_only', 'final_question'],
  mixRatio: ['balanced', 'english_leaning', 'hindi_leaning'],
} as const;

/** `{{name}}` placeholders and pre-call variable names. */
export const IDENTIFIER_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** E.164 as the spec writes it for transfer numbers. */
export const TRANSFER_NUMBER_PATTERN = /^\+\d{8,15}$/;

export interface ExtractionKey {
  name: string;
  type: (typeof EXTRACTION_KEY_TYPES)[number];
  description: string;
}

export interface ExtractionConfig {
  prompt: string;
  keys: ExtractionKey[];
  includeToolLogs?: boolean;
}

export interface Abilities {
  transfer?: { number: string; triggers?: string[] };
  booking?: { types: string[] };
  callback?: boolean;
  whatsapp?: { collectionIds: string[]; templateIds?: string[] };
  knowledgeDocIds?: string[];
  functionIds?: string[];
}

export interface FlowNode {
  id: string;
  type: (typeof FLOW_NODE_TYPES)[number];
  title: string;
  detail?: string;
  position?: { x: number; y: number };
}

export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  condition?: string;
}

export interface FlowGraph {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

export interface StudioConfig {
  agentName: string;
  industry?: string;
  designation?: string;
  companyName: string;
  companyDescription?: string;
  languages: string[];
  primaryLanguage: string;
  gender: (typeof GENDERS)[number];
  tone: (typeof TONES)[number];
  goal: string;
  briefText?: string;
  welcomeMessage?: string;
  guardrails?: Array<(typeof GUARDRAILS)[number]>;
  flowSteps: Array<{ id: string; title: string; detail?: string }>;
  flowGraph?: FlowGraph;
  faqs: Array<{ question: string; answer: string }>;
  closingBehavior?: (typeof CLOSING_BEHAVIORS)[number];
  abilities?: Abilities;
  languageSwitching?: (typeof LANGUAGE_SWITCHING)[number];
  keyTerms?: string[];
  sampleDialogue?: string;
  promptSpec?: number;
  overrides?: {
    namesPolicy?: string;
    identityConfirm?: string;
    silenceHandling?: string;
    endCallEtiquette?: string;
    mixRatio?: string;
  };
}

/** Every field a client may set (create or PATCH). */
export interface AgentSettings {
  name: string;
  prompt: string;
  greeting: string | null;
  voice: string;
  preCallVariables: string[] | null;
  extractionConfig: ExtractionConfig | null;
  agentType: AgentType;
  enableRecording: boolean;
  endCallEnabled: boolean;
  endCallMessage: string | null;
  endCallTriggers: string[] | null;
  maxCallDurationSecs: number;
  backgroundAudioId: string | null;
  backgroundAudioVolume: number | null;
  voicemailDetectionEnabled: boolean;
  voicemailMessage: string | null;
  screenerHandlingEnabled: boolean;
  transferEnabled: boolean;
  transferNumber: string | null;
  transferMessage: string | null;
  transferTriggers: string[] | null;
  studioConfig: StudioConfig | null;
  abilities: Abilities | null;
  flowGraph: FlowGraph | null;
}

/** Defaults of the optional fields on create. */
export const AGENT_DEFAULTS: Omit<AgentSettings, 'name' | 'prompt' | 'voice'> = {
  greeting: null,
  preCallVariables: null,
  extractionConfig: null,
  agentType: 'OUTBOUND',
  enableRecording: true,
  endCallEnabled: true,
  endCallMessage: null,
  endCallTriggers: null,
  maxCallDurationSecs: 600,
  backgroundAudioId: null,
  backgroundAudioVolume: null,
  voicemailDetectionEnabled: true,
  voicemailMessage: null,
  screenerHandlingEnabled: false,
  transferEnabled: false,
  transferNumber: null,
  transferMessage: null,
  transferTriggers: null,
  studioConfig: null,
  abilities: null,
  flowGraph: null,
};
