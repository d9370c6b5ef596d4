import { AppError } from '@outreach/core';

/**
 * A WhatsApp sender: a number the workspace sends WhatsApp messages from (decisions.md 30.2).
 * CONNECTING until the provider has verified it, then CONNECTED, or FAILED when it refused.
 */
export const SENDER_STATUSES = ['CONNECTING', 'CONNECTED', 'FAILED'] as const;
export type SenderStatus = (typeof SENDER_STATUSES)[number];

/** Whose WhatsApp Business account sends: the platform's (SHARED) or the workspace's own (DEDICATED). */
export const SENDER_MODES = ['SHARED', 'DEDICATED'] as const;
export type SenderMode = (typeof SENDER_MODES)[number];

/** Where the number comes from: the platform's pool (operator CLI) or the workspace's own number. */
export const NUMBER_SOURCES = ['PLATFORM_SHARED', 'OWN_NUMBER'] as const;
export type NumberSource = (typeof NUMBER_SOURCES)[number];

type SenderEvent = 'verified' | 'verificationFailed';

/** The sender's state machine: one table, consulted by every transition. */
const TRANSITIONS: Readonly<Record<SenderEvent, { from: readonly SenderStatus[]; to: SenderStatus }>> = {
  verified: { from: ['CONNECTING'], to: 'CONNECTED' },
  verificationFailed: { from: ['CONNECTING'], to: 'FAILED' },
};

export interface WhatsappSenderProps {
  id: string;
  workspaceId: string;
  mode: SenderMode;
  numberSource: NumberSource;
  status: SenderStatus;
  /** E.164. */
  e164: string;
  phoneDisplay: string;
  isDefault: boolean;
  hasCredentials: boolean;
  verifiedName: string | null;
  qualityRating: string | null;
  failureReason: string | null;
  connectedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What the provider answered when asked to verify a sender. */
export type SenderVerification = { ok: true; verifiedName: string; qualityRating: string } | { ok: false; reason: string };

export class WhatsappSender {
  private constructor(private props: WhatsappSenderProps) {}

  /** A number the workspace connects with its own WhatsApp Business credentials. */
  static connectOwn(input: { id: string; workspaceId: string; e164: string; phoneDisplay?: string; isDefault: boolean; now: Date }): WhatsappSender {
    return WhatsappSender.fresh(input, 'DEDICATED', 'OWN_NUMBER', true);
  }

  /** A number of the platform's pool given to the workspace by the operator: the platform's credentials. */
  static platformShared(input: { id: string; workspaceId: string; e164: string; phoneDisplay?: string; isDefault: boolean; now: Date }): WhatsappSender {
    return WhatsappSender.fresh(input, 'SHARED', 'PLATFORM_SHARED', false);
  }

  private static fresh(
    input: { id: string; workspaceId: string; e164: string; phoneDisplay?: string; isDefault: boolean; now: Date },
    mode: SenderMode,
    numberSource: NumberSource,
    hasCredentials: boolean,
  ): WhatsappSender {
    return new WhatsappSender({
      id: input.id,
      workspaceId: input.workspaceId,
      mode,
      numberSource,
      status: 'CONNECTING',
      e164: input.e164,
      phoneDisplay: input.phoneDisplay ?? input.e164,
      isDefault: input.isDefault,
      hasCredentials,
      verifiedName: null,
      qualityRating: null,
      failureReason: null,
      connectedAt: null,
      createdAt: input.now,
      updatedAt: input.now,
    });
  }

  static restore(props: WhatsappSenderProps): WhatsappSender {
    return new WhatsappSender({ ...props });
  }

  get id(): string {
    return this.props.id;
  }

  get workspaceId(): string {
    return this.props.workspaceId;
  }

  get status(): SenderStatus {
    return this.props.status;
  }

  get e164(): string {
    return this.props.e164;
  }

  get isDefault(): boolean {
    return this.props.isDefault;
  }

  /** Applies the provider's verdict; false (nothing changes) when the sender is no longer CONNECTING. */
  applyVerification(result: SenderVerification, now: Date): boolean {
    const event: SenderEvent = result.ok ? 'verified' : 'verificationFailed';
    if (!TRANSITIONS[event].from.includes(this.props.status)) return false;
    this.props.status = TRANSITIONS[event].to;
    if (result.ok) {
      this.props.verifiedName = result.verifiedName;
      this.props.qualityRating = result.qualityRating;
      this.props.connectedAt = now;
      this.props.failureReason = null;
    } else {
      this.props.failureReason = result.reason;
    }
    this.props.updatedAt = now;
    return true;
  }

  /** PATCH: the display text and whether it is the workspace's default sender. */
  edit(changes: { phoneDisplay?: string; isDefault?: boolean }, now: Date): void {
    if (changes.phoneDisplay !== undefined) this.props.phoneDisplay = changes.phoneDisplay;
    if (changes.isDefault !== undefined) {
      if (changes.isDefault === false && this.props.isDefault) {
        throw new AppError('invalid_request', { message: 'a workspace keeps one default sender: make another sender the default instead' });
      }
      this.props.isDefault = changes.isDefault;
    }
    this.props.updatedAt = now;
  }

  toProps(): WhatsappSenderProps {
    return { ...this.props };
  }
}
