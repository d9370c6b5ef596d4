import { createHash } from 'node:crypto';
import type { OutboxJob } from '@outreach/core';
import type { ProviderReport } from './provider-reports';

export enum MessagingQueue {
  Messaging = 'messaging',
}

export enum MessagingJob {
  VerifySender = 'verify-sender',
  ReviewTemplate = 'review-template',
  ProviderReport = 'provider-report',
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

export interface ProviderReportPayload {
  senderId: string;
  report: ProviderReport;
}

/** Applies one webhook report in the worker; its id names the event, so a redelivery while it waits is one job. */
export function providerReportJob(senderId: string, report: ProviderReport): OutboxJob {
  const payload: ProviderReportPayload = { senderId, report };
  const id = createHash('sha256').update(`${report.provider}\n${report.eventId}`).digest('hex').slice(0, 40);
  return { queue: MessagingQueue.Messaging, name: MessagingJob.ProviderReport, payload: { ...payload }, jobId: `message-report-${id}` };
}
