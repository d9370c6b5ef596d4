import { Injectable } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { MessageChannel, optOutAddress } from '../domain/opt-out';
import { OptOutRepository } from './messaging.ports';

/** Opt-outs per workspace + channel + address (decisions.md section 30); the engine's message legs consult them before sending. */
@Injectable()
export class OptOuts {
  constructor(
    private readonly optOuts: OptOutRepository,
    private readonly clock: Clock,
  ) {}

  /** Records an opt-out (a STOP reply, a complaint, an unsubscribe link); true when it is new. */
  record(workspaceId: string, channel: MessageChannel, address: string, source: string): Promise<boolean> {
    return this.optOuts.record({ workspaceId, channel, address: optOutAddress(channel, address), source, at: this.clock.now() });
  }

  isOptedOut(workspaceId: string, channel: MessageChannel, address: string): Promise<boolean> {
    return this.optOuts.isOptedOut(workspaceId, channel, optOutAddress(channel, address));
  }
}
