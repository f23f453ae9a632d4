/**
 * What a send says once its write is on the device (issue 15, item 11): the screen's success
 * toast ('Pings sent! 🎉') only when the device can reach the server; otherwise the truth, that
 * the ping is saved here and goes out by itself when the connection is back (docs/decisions.md).
 */
import { selectOnline, useConnectivity } from '../stores';

export const SAVED_OFFLINE_TITLE = "Saved, will send when you're back online";
export const SAVED_OFFLINE_TEXT = 'It waits on this device and goes out by itself.';

export interface SuccessToast {
  title: string;
  description?: string;
  variant: 'success';
}

/** The success toast, or 'Saved, will send when you're back online' while offline. */
export function sentOrSaved(sent: SuccessToast, online = selectOnline(useConnectivity.getState())) {
  if (online) return sent;
  return {
    title: SAVED_OFFLINE_TITLE,
    description: SAVED_OFFLINE_TEXT,
    variant: 'default' as const,
  };
}
