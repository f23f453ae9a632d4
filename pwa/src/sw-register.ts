/**
 * Registers the service worker with workbox-window. A new version never takes over silently
 * (registerType 'prompt'): the app shows 'A new version is available' and reloads on request.
 */
import { Workbox } from 'workbox-window';
import { useUi } from './stores';

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    useUi.getState().setApplyUpdate(() => {
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    });
  });
  wb.register().catch((err: unknown) => console.warn('service worker registration failed', err));
}
