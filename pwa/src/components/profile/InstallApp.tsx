/**
 * Settings › App: install PingMe where the browser offers it ('Install PingMe', Chromium's
 * `beforeinstallprompt`, kept by install.ts), how to add it on iOS Safari (no such event there),
 * or that it runs installed; and the version of the app this device runs, so a person (and the
 * update test) can see which build the service worker gave them.
 */
import { useState } from 'react';
import { isIosSafari, runningInstalled } from '../../install';
import { useUi } from '../../stores';
import { Button } from '../Button';

export function InstallApp() {
  const installPrompt = useUi((s) => s.installPrompt);
  const setInstallPrompt = useUi((s) => s.setInstallPrompt);
  const [busy, setBusy] = useState(false);

  const install = async () => {
    if (!installPrompt) return;
    setBusy(true);
    try {
      await installPrompt.prompt();
      // The event can be used once, whatever the answer: the browser fires a new one if it may.
      await installPrompt.userChoice;
      setInstallPrompt(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="install-app" data-testid="install-app">
      {runningInstalled() ? (
        <p className="install-app__text">PingMe is installed on this device.</p>
      ) : installPrompt ? (
        <>
          <p className="install-app__text">
            Install PingMe to open it from your home screen, like any other app.
          </p>
          <Button variant="secondary" size="sm" loading={busy} onClick={() => void install()}>
            Install PingMe
          </Button>
        </>
      ) : isIosSafari() ? (
        <p className="install-app__text">
          To install PingMe on this iPhone or iPad: tap <strong>Share</strong>, then{' '}
          <strong>Add to Home Screen</strong>.
        </p>
      ) : null}
      <p className="install-app__version">Version {__APP_VERSION__}</p>
    </div>
  );
}
