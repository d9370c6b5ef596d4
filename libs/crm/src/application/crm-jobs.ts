import type { OutboxJob } from '@outreach/core';

export enum CrmQueue {
  Crm = 'crm',
}

export enum CrmJob {
  /** `{ importId }`: read the import's pages from its stored cursor on (also after a crash). */
  Import = 'import',
  /** `{ notificationId }`: send one order notification through messaging's SendMessage. */
  OrderNotification = 'order-notification',
}

export function crmImportJob(importId: string): OutboxJob {
  return { queue: CrmQueue.Crm, name: CrmJob.Import, payload: { importId }, jobId: `crm-import-${importId}` };
}

export function orderNotificationJob(notificationId: string): OutboxJob {
  return { queue: CrmQueue.Crm, name: CrmJob.OrderNotification, payload: { notificationId }, jobId: `crm-order-notification-${notificationId}` };
}
