/**
 * Background work of the app shell; renders only the new-ping banner. It tracks connectivity and
 * runs the sync engine (sync/engine.ts) for the signed-in person on every trigger the architecture
 * names: at start, on 'online', on becoming visible, on Background Sync, on a slow timer, and when
 * the server answers again after being unreachable (a probe every second notices that even when
 * the browser fires no 'online' event).
 */
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { refreshSession } from '../session';
import { NewPingBanner } from './pings/NewPingBanner';
import { useConnectivity, useRealtime, useSession } from '../stores';
import { backoffDelay } from '../sync/backoff';
import { installSyncEngine, runSync, syncEngine } from '../sync/engine';
import { createLiveEngine } from '../sync/live-engine';
import { ensurePersistentStorage } from '../sync/storage';
import { isSwToPageMessage } from '../sync/sw-protocol';

// The real engine replaces the idle one before anything renders (this module loads with the shell).
installSyncEngine(createLiveEngine());

/** Pulls while open even without a poke, so a lost /ws message is recovered (guarantee 6). */
const SLOW_PULL_MS = 60_000;
/**
 * While the server is unreachable, ask again this often (a small GET): a connection that comes
 * back without an 'online' event (a Wi-Fi that never dropped, a proxy or tunnel restored) is
 * noticed within about a second, however long the outbox's backoff has grown.
 */
export const REACHABILITY_PROBE_MS = 1000;
/** A probe with no answer by then is given up (the next one starts). */
const PROBE_TIMEOUT_MS = 3000;

export function SyncHost() {
  const user = useSession((s) => s.user);
  const userId = user?.id;
  const serverReachable = useConnectivity((s) => s.serverReachable);
  const navigate = useNavigate();

  useEffect(() => {
    const { setBrowserOnline } = useConnectivity.getState();
    const update = () => setBrowserOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);

  useEffect(() => {
    if (!userId || !user) return;
    const close = syncEngine().connect(user);
    // A failure of someone signed in earlier on this page is not this person's.
    useRealtime.getState().setPullFailed(false);
    void runSync('start');
    void ensurePersistentStorage();
    const onOnline = () => void runSync('online');
    const onVisible = () => {
      if (document.visibilityState === 'visible') void runSync('visible');
    };
    const timer = setInterval(() => void runSync('timer'), SLOW_PULL_MS);
    window.addEventListener('online', onOnline);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      close();
      clearInterval(timer);
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisible);
    };
    // Reconnect only when the person changes, not on every profile edit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId]);

  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      if (!isSwToPageMessage(event.data)) return;
      if (event.data.type === 'outbox-sync') void runSync('background-sync');
      else void navigate({ href: event.data.url });
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [navigate]);

  // A pull that failed with the server reachable (an error answer, an unreadable page) is tried
  // again sooner than the slow timer, backing off (1 s, 2 s, 4 s… up to a minute), until one
  // succeeds: a new device would otherwise wait a minute on its loading state after one error.
  const pullFailed = useRealtime((s) => s.pullFailed);
  useEffect(() => {
    if (!pullFailed || !userId) return;
    let attempt = 0;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = () => {
      attempt += 1;
      timer = setTimeout(() => {
        void runSync('timer').then(() => {
          if (!stopped && useRealtime.getState().pullFailed) again();
        });
      }, backoffDelay(attempt));
    };
    again();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [pullFailed, userId]);

  // The server answers again (a probe or any call): send what waits and catch up now.
  const wasReachable = useRef(serverReachable);
  useEffect(() => {
    const before = wasReachable.current;
    wasReachable.current = serverReachable;
    if (serverReachable && !before && userId) void runSync('online');
  }, [serverReachable, userId]);

  useEffect(() => {
    if (serverReachable) return;
    let probing = false;
    const probe = async () => {
      // Offline for the browser: its 'online' event comes first; no request can succeed.
      if (probing || navigator.onLine === false) return;
      probing = true;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
      try {
        await refreshSession(controller.signal);
      } finally {
        clearTimeout(timer);
        probing = false;
      }
    };
    const every = setInterval(() => void probe(), REACHABILITY_PROBE_MS);
    const onOnline = () => void probe();
    window.addEventListener('online', onOnline);
    return () => {
      clearInterval(every);
      window.removeEventListener('online', onOnline);
    };
  }, [serverReachable]);

  return userId ? <NewPingBanner /> : null;
}
