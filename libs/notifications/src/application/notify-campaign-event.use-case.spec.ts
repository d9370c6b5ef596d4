import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { inMemoryMemberDirectory, seedMember } from '../../../workspaces/src/testing';
import { InMemoryNotificationRepository, RecordingEmailSender } from '../testing';
import { CampaignEventPayload } from './notifications-jobs';
import { NotifyCampaignEvent } from './notify-campaign-event.use-case';

const WS = 'ws-1';

async function setup() {
  const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
  const { directory: members, members: memberRepo } = inMemoryMemberDirectory(clock);
  const notifications = new InMemoryNotificationRepository();
  const email = new RecordingEmailSender();
  const notify = new NotifyCampaignEvent(members, notifications, email, new RollbackUnitOfWork([]), clock);
  const ann = await seedMember(memberRepo, { workspaceId: WS, email: 'ann@example.com' });
  const ben = await seedMember(memberRepo, { workspaceId: WS, email: 'ben@example.com' });
  const event = (memberIds: string[]): CampaignEventPayload => ({
    workspaceId: WS,
    campaignId: 'c-1',
    campaignName: 'Spring',
    event: 'campaign_paused',
    reason: 'no_usable_caller_id',
    occurredAt: '2026-11-25T09:59:00.000Z',
    memberIds,
  });
  return { notify, notifications, email, members, ann, ben, event };
}

describe('NotifyCampaignEvent (use case, ports faked)', () => {
  it('one notification per ACTIVE member, each e-mailed with the reason; a re-run writes and sends nothing again', async () => {
    const s = await setup();
    await s.members.setStatus(s.ben.id, 'REMOVED');
    expect(await s.notify.execute(s.event([s.ann.id, s.ben.id, 'unknown']))).toEqual({ written: 1, emailed: 1, skipped: 2 });
    expect(s.notifications.rows).toEqual([expect.objectContaining({ memberId: s.ann.id, email: 'ann@example.com', event: 'campaign_paused', reason: 'no_usable_caller_id', emailStatus: 'sent' })]);
    expect(s.email.sent).toEqual([expect.objectContaining({ workspaceId: WS, to: 'ann@example.com', subject: 'Campaign "Spring" was paused' })]);
    expect(s.email.sent[0].text).toContain('Reason: no_usable_caller_id');

    expect(await s.notify.execute(s.event([s.ann.id, s.ben.id]))).toEqual({ written: 0, emailed: 0, skipped: 1 });
    expect(s.notifications.rows).toHaveLength(1);
    expect(s.email.sent).toHaveLength(1);
  });

  it('an e-mail the sender refuses marks its notification failed; others are still sent', async () => {
    const s = await setup();
    s.email.failFor.add('ann@example.com');
    expect(await s.notify.execute(s.event([s.ann.id, s.ben.id]))).toEqual({ written: 2, emailed: 1, skipped: 0 });
    expect(s.notifications.rows.map((n) => [n.email, n.emailStatus])).toEqual([
      ['ann@example.com', 'failed'],
      ['ben@example.com', 'sent'],
    ]);
  });

  it('without an e-mail sender the rows are written with email status not_configured', async () => {
    const s = await setup();
    s.email.configured = false;
    await s.notify.execute(s.event([s.ann.id]));
    expect(s.notifications.rows.map((n) => n.emailStatus)).toEqual(['not_configured']);
    expect(s.email.sent).toEqual([]);
  });
});
