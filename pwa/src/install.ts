/**
 * Installing the app (docs/pwa.md, "Install and update"). Chromium offers installation with
 * `beforeinstallprompt`, once, early in the page's life: the listener is set at start-up and
 * keeps the event for the 'Install PingMe' button. iOS Safari has no such event: the person adds
 * the app from the Share menu, so the app tells them how.
 */
import { useUi, type InstallPromptEvent } from './stores';

export function listenForInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    // Keep the browser's own mini-bar away: the app offers it where the person looks for it.
    event.preventDefault();
    useUi.getState().setInstallPrompt(event as InstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => useUi.getState().setInstallPrompt(null));
}

/** Running as the installed app (its own window), not in a browser tab. */
export function runningInstalled(): boolean {
  return (
    window.matchMedia('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/**
 * Safari on an iPhone or iPad, where 'Add to Home Screen' is the way to install. iPadOS presents
 * itself as a Mac: a Mac with a touch screen is an iPad. Chrome, Firefox and Edge on iOS name
 * themselves (CriOS, FxiOS, EdgiOS).
 */
export function isIosSafari(
  userAgent = navigator.userAgent,
  touchPoints = navigator.maxTouchPoints,
) {
  const ios =
    /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && touchPoints > 1);
  return ios && /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(userAgent);
}
