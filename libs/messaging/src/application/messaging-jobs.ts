import type { OutboxJob } from '@outreach/core';

export enum MessagingQueue {
  Messaging = 'messaging',
}

export enum MessagingJob {
  VerifySender = 'verify-sender',
  ReviewTemplate = 'review-template',
}

export interface VerifySenderPayload {
  senderId: string;
}

export interface ReviewTemplatePayload {
  templateId: string;
}

export function verifySenderJob(senderId: string): OutboxJob {
  const payload: VerifySenderPayload = { senderId };
  return { queue: MessagingQueue.Messaging, name: MessagingJob.VerifySender, payload: { ...payload } };
}

export function reviewTemplateJob(templateId: string): OutboxJob {
  const payload: ReviewTemplatePayload = { templateId };
  return { queue: MessagingQueue.Messaging, name: MessagingJob.ReviewTemplate, payload: { ...payload } };
}
