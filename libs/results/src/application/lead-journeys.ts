/**
 * The `journey` object of a lead's result (the contract's shape): filled by the workflows module,
 * which depends on results — it binds its reader into LeadJourneysBinding when it starts
 * (decisions.md 37.13). Unbound, or a lead without a run: null.
 */
export abstract class LeadJourneys {
  abstract journeyOf(contactId: string): Promise<Record<string, unknown> | null>;
}

export class LeadJourneysBinding extends LeadJourneys {
  private bound: LeadJourneys | null = null;

  bind(journeys: LeadJourneys): void {
    this.bound = journeys;
  }

  async journeyOf(contactId: string): Promise<Record<string, unknown> | null> {
    return this.bound ? this.bound.journeyOf(contactId) : null;
  }
}
