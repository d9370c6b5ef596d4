import { Injectable } from '@nestjs/common';
import type { OutboxJob } from '@outreach/core';
import { JourneyCallEnded, JourneySteps } from '../application/engine.ports';

/**
 * The JourneySteps the engine asks. The workflows module depends on the engine's seam, not the
 * reverse: it binds its implementation here when its worker module starts (`bind`), as crm and
 * workflows bind campaigns' directories. Unbound (a process without workflows): no run starts and
 * a CUSTOM contact's call settles with nothing to hand on.
 */
@Injectable()
export class JourneyStepsBinding extends JourneySteps {
  private bound: JourneySteps | null = null;

  bind(steps: JourneySteps): void {
    this.bound = steps;
  }

  async admit(campaignId: string): Promise<void> {
    if (this.bound) await this.bound.admit(campaignId);
  }

  async callAgent(contactId: string): Promise<string | null> {
    return this.bound ? this.bound.callAgent(contactId) : null;
  }

  async callEnded(call: JourneyCallEnded): Promise<OutboxJob[]> {
    return this.bound ? this.bound.callEnded(call) : [];
  }
}
