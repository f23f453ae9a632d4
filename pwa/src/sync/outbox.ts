/**
 * After a write's transaction commits (sync/local-write.ts): flush now if a tab is open, and ask
 * for Background Sync so the outbox is also sent when the network returns with no tab open.
 */
import { requestBackgroundSync } from './background-sync';
import { syncEngine } from './engine';

export function requestOutboxFlush(): void {
  void syncEngine()
    .flushOutbox('write')
    .catch((err) => console.warn('outbox flush failed', err));
  void requestBackgroundSync();
}
