import { AppError, isE164 } from '@outreach/core';

export const CARRIER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;
/** The carrier of a number added without one: the deterministic sandbox (decisions.md 14.11, 16.12). */
export const DEFAULT_CARRIER = 'sandbox';

export interface PhoneNumberProps {
  id: string;
  workspaceId: string;
  e164: string;
  carrier: string;
  /** Can receive calls (inbound campaigns); every number can place calls. */
  inbound: boolean;
  createdAt: Date;
}

/** A number a workspace may call from, on a carrier the operator can switch off per workspace. */
export class PhoneNumber {
  private constructor(private readonly props: PhoneNumberProps) {}

  static register(input: { id: string; workspaceId: string; e164: string; carrier?: string; inbound?: boolean; now: Date }): PhoneNumber {
    const e164 = input.e164.trim();
    if (!isE164(e164)) {
      throw new AppError('invalid_phone', { message: `${JSON.stringify(input.e164)} is not an E.164 number (+ and 8-15 digits)` });
    }
    return new PhoneNumber({
      id: input.id,
      workspaceId: input.workspaceId,
      e164,
      carrier: normaliseCarrier(input.carrier ?? DEFAULT_CARRIER),
      inbound: input.inbound ?? false,
      createdAt: input.now,
    });
  }

  static restore(props: PhoneNumberProps): PhoneNumber {
    return new PhoneNumber({ ...props });
  }

  toProps(): PhoneNumberProps {
    return { ...this.props };
  }
}

export function normaliseCarrier(name: string): string {
  const carrier = name.trim().toLowerCase();
  if (!CARRIER_NAME_PATTERN.test(carrier)) {
    throw new AppError('invalid_request', { message: `carrier ${JSON.stringify(name)} must be 1-40 of a-z, 0-9, _ and -` });
  }
  return carrier;
}
