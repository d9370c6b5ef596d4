import { AppError } from '@outreach/core';
import { assertBindings, needsRuntimeContext, VariableBinding } from './variable-bindings';

/**
 * A WhatsApp message template (decisions.md 30.4). DRAFT until submitted; PENDING while the
 * provider reviews it; then APPROVED or REJECTED. Only an APPROVED template can be sent.
 */
export const TEMPLATE_STATUSES = ['DRAFT', 'PENDING', 'APPROVED', 'REJECTED'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

type TemplateEvent = 'submit' | 'approve' | 'reject' | 'edit';

/** The template's state machine: one table. */
const TRANSITIONS: Readonly<Record<TemplateEvent, { from: readonly TemplateStatus[]; to: TemplateStatus }>> = {
  submit: { from: ['DRAFT', 'REJECTED'], to: 'PENDING' },
  approve: { from: ['PENDING'], to: 'APPROVED' },
  reject: { from: ['PENDING'], to: 'REJECTED' },
  // An edit of a reviewed template takes it back to DRAFT: it must be submitted (and reviewed) again.
  edit: { from: ['DRAFT', 'APPROVED', 'REJECTED'], to: 'DRAFT' },
};

export interface WhatsappTemplateFields {
  name: string;
  language: string;
  category: TemplateCategory;
  body: string;
  footer: string | null;
  bindings: VariableBinding[];
}

export interface WhatsappTemplateProps extends WhatsappTemplateFields {
  id: string;
  workspaceId: string;
  status: TemplateStatus;
  rejectionReason: string | null;
  submittedAt: Date | null;
  reviewedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What the provider's review said. */
export type TemplateReview = { status: 'APPROVED' } | { status: 'REJECTED'; reason: string } | { status: 'PENDING' };

function checkFields(fields: WhatsappTemplateFields): void {
  assertBindings([fields.body], fields.bindings, 'body');
}

export class WhatsappTemplate {
  private constructor(private props: WhatsappTemplateProps) {}

  static create(input: { id: string; workspaceId: string; fields: WhatsappTemplateFields; now: Date }): WhatsappTemplate {
    checkFields(input.fields);
    return new WhatsappTemplate({
      ...input.fields,
      bindings: input.fields.bindings.map((b) => ({ ...b })),
      id: input.id,
      workspaceId: input.workspaceId,
      status: 'DRAFT',
      rejectionReason: null,
      submittedAt: null,
      reviewedAt: null,
      createdAt: input.now,
      updatedAt: input.now,
    });
  }

  static restore(props: WhatsappTemplateProps): WhatsappTemplate {
    return new WhatsappTemplate({ ...props, bindings: props.bindings.map((b) => ({ ...b })) });
  }

  get id(): string {
    return this.props.id;
  }

  get name(): string {
    return this.props.name;
  }

  get status(): TemplateStatus {
    return this.props.status;
  }

  /** What is submitted for review (and, later, sent). */
  fields(): WhatsappTemplateFields {
    const p = this.props;
    return { name: p.name, language: p.language, category: p.category, body: p.body, footer: p.footer, bindings: p.bindings.map((b) => ({ ...b })) };
  }

  /** True when a binding can only be filled at send time (e.g. a payment link). */
  get needsRuntimeContext(): boolean {
    return needsRuntimeContext(this.props.bindings);
  }

  /** PATCH: the changed fields, checked together; a reviewed template goes back to DRAFT. */
  edit(changes: Partial<WhatsappTemplateFields>, now: Date): void {
    this.assertCan('edit', 'a template under review cannot be changed: wait for the review');
    const next: WhatsappTemplateFields = {
      name: changes.name ?? this.props.name,
      language: changes.language ?? this.props.language,
      category: changes.category ?? this.props.category,
      body: changes.body ?? this.props.body,
      footer: changes.footer !== undefined ? changes.footer : this.props.footer,
      bindings: (changes.bindings ?? this.props.bindings).map((b) => ({ ...b })),
    };
    checkFields(next);
    Object.assign(this.props, next);
    this.props.status = TRANSITIONS.edit.to;
    this.props.rejectionReason = null;
    this.props.updatedAt = now;
  }

  /** Sends the template for review. False (nothing changes) when it is already PENDING. */
  submit(now: Date): boolean {
    if (this.props.status === 'PENDING') return false;
    this.assertCan('submit', 'the template is APPROVED already; edit it to submit a new version');
    this.props.status = TRANSITIONS.submit.to;
    this.props.submittedAt = now;
    this.props.rejectionReason = null;
    this.props.updatedAt = now;
    return true;
  }

  /** Applies the provider's review; false when there is nothing to change (not PENDING, or still under review). */
  applyReview(review: TemplateReview, now: Date): boolean {
    if (review.status === 'PENDING') return false;
    const event: TemplateEvent = review.status === 'APPROVED' ? 'approve' : 'reject';
    if (!TRANSITIONS[event].from.includes(this.props.status)) return false;
    this.props.status = TRANSITIONS[event].to;
    this.props.rejectionReason = review.status === 'REJECTED' ? review.reason : null;
    this.props.reviewedAt = now;
    this.props.updatedAt = now;
    return true;
  }

  toProps(): WhatsappTemplateProps {
    return { ...this.props, bindings: this.props.bindings.map((b) => ({ ...b })) };
  }

  private assertCan(event: TemplateEvent, message: string): void {
    if (!TRANSITIONS[event].from.includes(this.props.status)) throw new AppError('invalid_request', { message });
  }
}
