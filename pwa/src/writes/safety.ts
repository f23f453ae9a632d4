/**
 * Blocking, reporting and an admin resolving a report (spec section 6, docs/security.md). They
 * are sent at once, not queued: the screen waits for the server's decision before it goes on.
 */
import type { MutationInput } from '@pingme/shared';
import { sendNow } from './send-now';

export const blockPerson = (userId: string) => sendNow('block.create', { userId });

export const unblockPerson = (userId: string) => sendNow('block.delete', { userId });

export const sendReport = (report: MutationInput<'report.create'>) =>
  sendNow('report.create', report);

export const resolveReport = (id: string) => sendNow('report.resolve', { id, status: 'resolved' });
