/** Start-up: settle the session (and the device id meanwhile), then render and register the SW. */
// First: zod must not probe for eval under the app's CSP (shared/src/csp.ts).
import '@pingme/shared/csp';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { FIRST_FRAME_WAIT_MAX_MS, afterFirstFrame, firstFramePainted } from './after-first-frame';
import { ensureDeviceId } from './db';
import { listenForInstallPrompt } from './install';
import { createAppRouter } from './router';
import { bootSession } from './session';
import { useSession } from './stores';
import './styles/theme.css';
import './styles/components.css';
import './styles/screens.css';

async function start() {
  // Before anything awaits: the browser offers installation once, early.
  listenForInstallPrompt();
  // The device id is settled meanwhile; only the push subscription reads it (and waits for it).
  // Private modes may refuse IndexedDB: the app still runs, just without offline data.
  ensureDeviceId().catch((err: unknown) => console.warn('IndexedDB is not available', err));
  await bootSession();

  const router = createAppRouter();
  // Signing out (or a session the server no longer knows) re-runs the guards of the screen.
  useSession.subscribe((now, before) => {
    if (before.status === 'signed-in' && now.status === 'signed-out') void router.invalidate();
  });

  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  // The service worker is not needed for the first frame: workbox-window (its own chunk) is
  // fetched and the worker registered once the app's first frame is on screen and the page is
  // idle (after-first-frame.ts).
  afterFirstFrame(() => void import('./sw-register').then((m) => m.registerServiceWorker()));
  // The emoji font likewise: its face is declared after the first frame, fetched when used.
  afterFirstFrame(() => void import('./emoji-font').then((m) => m.addEmojiFont()));
  setTimeout(firstFramePainted, FIRST_FRAME_WAIT_MAX_MS);
}

void start();
