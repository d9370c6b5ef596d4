import { DEFAULT_RECIPIENT_HOURS, RecipientHoursSetting } from './recipient-hours';

/**
 * How a campaign runs: caps, windows, retries, follow-ups, messaging. Bounds are enforced at the
 * edge (the update DTO, decisions.md 13.3, 13.8); this is the stored shape with its defaults. The execution
 * engine reads it from the aggregate.
 */
export interface WhatsappAutomation {
  key: string;
  label: string;
  detail: string;
}

export interface OutreachRuleCondition {
  kind: string;
  describe: string;
}

export interface OutreachRule {
  trigger: string;
  afterDays: number;
  condition: OutreachRuleCondition;
  conditions: OutreachRuleCondition[];
  match: string;
  action: string;
}

export interface CampaignSettings {
  notificationUserIds: string[];
  goal: string | null;
  briefText: string | null;
  briefFileName: string | null;
  briefUploadedAt: string | null;
  /** HH:MM in the campaign's timezone. */
  dailyWindowStart: string;
  dailyWindowEnd: string;
  /** 0 = Sunday … 6 = Saturday. */
  dialDays: number[];
  /** Null: no daily cap. */
  dailyDialCap: number | null;
  /** Circuit breaker (decisions.md 16.26): the last this-many settled calls since the campaign went RUNNING… */
  circuitBreakerWindow: number;
  /** …of which more than this percentage carrier failures pauses it (`circuit_open`); 100 never trips. */
  circuitBreakerFailurePercent: number;
  /**
   * Spend guard (decisions.md 29.1): the most this campaign's ledger debits may add up to, minor
   * units of the workspace currency; dispatch stops before they would pass it. Null: no budget.
   */
  budgetMinor: number | null;
  dailyMessageCap: number | null;
  /** Recipient-local calling hours (decisions.md 28.1): "off", or HH:MM–HH:MM in each recipient's zone. */
  recipientHours: RecipientHoursSetting;
  /** No calls on the recipient region's public holidays (recipient-local day; decisions.md 28.3). */
  skipHolidays: boolean;

  retryCount: number;
  cooldownMinutes: number;
  retryDelaysMinutes: number[];
  retryConcurrencyPercent: number;
  skipRetryOnFirstVoicemail: boolean;

  followupEnabled: boolean;
  followupMaxAttempts: number;
  churnEnabled: boolean;
  churnMaxAttempts: number;
  churnIntervalHours: number;
  churnDelaysHours: number[];

  incompleteRetryEnabled: boolean;
  incompleteRetryMaxAttempts: number;
  incompleteRetryIntervalMinutes: number;
  incompleteRetryDelaysMinutes: number[];
  incompleteCallSeconds: number;

  referralMaxDepth: number;

  messageRetryEnabled: boolean;
  messageRetryTieredEnabled: boolean;
  messageRetryMaxAttempts: number;
  messageRetryIntervalSeconds: number;
  messageRetryDelaysSeconds: number[];
  messageRetryWindowSeconds: number;
  messageRetryTransientMaxAttempts: number;

  whatsappEnabled: boolean;
  whatsappOutreachTemplateId: string | null;
  whatsappAgentTemplateIds: string[];
  whatsappTemplateByMetric: Record<string, unknown> | null;
  whatsappAutomations: WhatsappAutomation[];
  whatsappPaymentLinkEnabled: boolean;
  messageDeclinedLeads: boolean;
  recoveryLinkEnabled: boolean;
  transliterateCalleeNames: boolean;
  autoReseedEnabled: boolean;
  outreachRules: OutreachRule[];
}

export const DEFAULT_CAMPAIGN_SETTINGS: Readonly<CampaignSettings> = Object.freeze({
  notificationUserIds: [],
  goal: null,
  briefText: null,
  briefFileName: null,
  briefUploadedAt: null,
  dailyWindowStart: '09:00',
  dailyWindowEnd: '18:00',
  dialDays: [0, 1, 2, 3, 4, 5, 6],
  dailyDialCap: null,
  dailyMessageCap: null,
  circuitBreakerWindow: 40,
  circuitBreakerFailurePercent: 50,
  budgetMinor: null,
  recipientHours: { ...DEFAULT_RECIPIENT_HOURS },
  skipHolidays: false,

  retryCount: 2,
  cooldownMinutes: 60,
  retryDelaysMinutes: [60, 240],
  retryConcurrencyPercent: 20,
  skipRetryOnFirstVoicemail: false,

  followupEnabled: false,
  followupMaxAttempts: 1,
  churnEnabled: false,
  churnMaxAttempts: 1,
  churnIntervalHours: 24,
  churnDelaysHours: [],

  incompleteRetryEnabled: false,
  incompleteRetryMaxAttempts: 1,
  incompleteRetryIntervalMinutes: 30,
  incompleteRetryDelaysMinutes: [],
  incompleteCallSeconds: 20,

  referralMaxDepth: 0,

  messageRetryEnabled: false,
  messageRetryTieredEnabled: false,
  messageRetryMaxAttempts: 3,
  messageRetryIntervalSeconds: 3600,
  messageRetryDelaysSeconds: [],
  messageRetryWindowSeconds: 86400,
  messageRetryTransientMaxAttempts: 5,

  whatsappEnabled: false,
  whatsappOutreachTemplateId: null,
  whatsappAgentTemplateIds: [],
  whatsappTemplateByMetric: null,
  whatsappAutomations: [],
  whatsappPaymentLinkEnabled: false,
  messageDeclinedLeads: false,
  recoveryLinkEnabled: false,
  transliterateCalleeNames: false,
  autoReseedEnabled: false,
  outreachRules: [],
});

export const CAMPAIGN_SETTING_KEYS = Object.keys(DEFAULT_CAMPAIGN_SETTINGS) as Array<keyof CampaignSettings>;

/** Stored settings merged over the defaults (keys added later get their default). */
export function withDefaultSettings(stored: Partial<CampaignSettings> | null | undefined): CampaignSettings {
  return structuredClone({ ...DEFAULT_CAMPAIGN_SETTINGS, ...(stored ?? {}) }) as CampaignSettings;
}
