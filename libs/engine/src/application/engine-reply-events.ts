import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContactHandOffs } from '@outreach/campaigns';
import { Outbox, UnitOfWork } from '@outreach/core';
import { MessageEvent, MessageEvents, MessageQueries } from '@outreach/messaging';
import { replyRulesJob } from './engine-jobs';

/**
 * The engine's subscriber to messaging's MessageEvents (decisions.md 34.4): a reply to one of our
 * messages, from a phone some campaign with outreach rules has as a contact (47.7), becomes a
 * `outreach/reply-rules` job, judged by the campaigns' outreach rules in the
 * worker. It runs after messaging's own intake stored the reply; should writing the job fail, the
 * event's delivery fails and its webhook job runs again (the intake skips what it applied, this
 * subscriber writes the job; the job id keeps it single).
 */
@Injectable()
export class EngineReplyEvents implements OnModuleInit {
  constructor(
    private readonly events: MessageEvents,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly messages: MessageQueries,
    private readonly handOffs: ContactHandOffs,
  ) {}

  onModuleInit(): void {
    this.events.subscribeMany((events) => this.onEvents(events));
  }

  /**
   * The replies of a batch, their jobs written together; only for replies from a phone that some
   * campaign with outreach rules has as a contact (one read per workspace, decisions.md 47.7): any
   * other reply's job would find nothing to judge.
   */
  async onEvents(events: readonly MessageEvent[]): Promise<void> {
    const replies = events.flatMap((event) => (event.type === 'replied' ? [event] : []));
    if (replies.length === 0) return;
    const parties = await this.messages.parties(replies.map((r) => r.messageId));
    const phones = new Map<string, Set<string>>();
    for (const party of parties.values()) {
      if (party.channel !== 'WHATSAPP') continue;
      const set = phones.get(party.workspaceId) ?? new Set<string>();
      phones.set(party.workspaceId, set.add(party.address));
    }
    const judged = new Map<string, Set<string>>();
    for (const [workspaceId, set] of phones) judged.set(workspaceId, await this.handOffs.phonesWithCandidates(workspaceId, [...set]));
    const jobs = replies
      .filter((r) => {
        const party = parties.get(r.messageId);
        return party !== undefined && judged.get(party.workspaceId)?.has(party.address) === true;
      })
      .map((r) => replyRulesJob({ messageId: r.messageId, provider: r.provider, replyId: r.eventId, text: r.text, at: r.at.toISOString() }));
    if (jobs.length > 0) await this.uow.run(() => this.outbox.enqueue(...jobs));
  }
}
