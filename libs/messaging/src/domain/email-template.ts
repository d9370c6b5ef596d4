import { AppError } from '@outreach/core';
import { assertBindings, VariableBinding } from './variable-bindings';

/**
 * An email template (decisions.md 30.6): a subject and an HTML and/or text body sharing one set of
 * placeholders (`{{1}}` …) with the same variable bindings as WhatsApp templates. No review.
 */
export interface EmailTemplateFields {
  name: string;
  subject: string;
  htmlBody: string | null;
  textBody: string | null;
  bindings: VariableBinding[];
}

export interface EmailTemplateProps extends EmailTemplateFields {
  id: string;
  workspaceId: string;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

function checkFields(fields: EmailTemplateFields): void {
  if (fields.htmlBody === null && fields.textBody === null) {
    throw new AppError('invalid_body', {
      message: 'an email template needs an HTML body, a text body, or both',
      issues: [{ path: 'textBody', message: 'htmlBody or textBody is required' }],
    });
  }
  assertBindings([fields.subject, fields.htmlBody, fields.textBody], fields.bindings, 'subject');
}

export class EmailTemplate {
  private constructor(private props: EmailTemplateProps) {}

  static create(input: { id: string; workspaceId: string; fields: EmailTemplateFields; isDefault: boolean; now: Date }): EmailTemplate {
    checkFields(input.fields);
    return new EmailTemplate({
      ...input.fields,
      bindings: input.fields.bindings.map((b) => ({ ...b })),
      id: input.id,
      workspaceId: input.workspaceId,
      isDefault: input.isDefault,
      createdAt: input.now,
      updatedAt: input.now,
    });
  }

  static restore(props: EmailTemplateProps): EmailTemplate {
    return new EmailTemplate({ ...props, bindings: props.bindings.map((b) => ({ ...b })) });
  }

  get id(): string {
    return this.props.id;
  }

  get name(): string {
    return this.props.name;
  }

  get isDefault(): boolean {
    return this.props.isDefault;
  }

  edit(changes: Partial<EmailTemplateFields> & { isDefault?: boolean }, now: Date): void {
    const next: EmailTemplateFields = {
      name: changes.name ?? this.props.name,
      subject: changes.subject ?? this.props.subject,
      htmlBody: changes.htmlBody !== undefined ? changes.htmlBody : this.props.htmlBody,
      textBody: changes.textBody !== undefined ? changes.textBody : this.props.textBody,
      bindings: (changes.bindings ?? this.props.bindings).map((b) => ({ ...b })),
    };
    checkFields(next);
    if (changes.isDefault === false && this.props.isDefault) {
      throw new AppError('invalid_request', { message: 'a workspace keeps one default email template: make another template the default instead' });
    }
    Object.assign(this.props, next);
    if (changes.isDefault !== undefined) this.props.isDefault = changes.isDefault;
    this.props.updatedAt = now;
  }

  toProps(): EmailTemplateProps {
    return { ...this.props, bindings: this.props.bindings.map((b) => ({ ...b })) };
  }
}
