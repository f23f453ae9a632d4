/**
 * Settings tab, owner only: the admin's dashboard button, privacy and safety (privacy settings,
 * 'Download My Data' = GET /api/export saved as a file, Sign Out, then components/safety:
 * change password, sign out everywhere, blocked people, delete account), preferences, and the
 * app itself (install, version).
 */
import type { SelfUser } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from '../../stores';
import { Button, buttonClass } from '../Button';
import { NotificationsToggle } from '../pings/NotificationsToggle';
import { SafetySettings } from '../safety/SafetySettings';
import { InstallApp } from './InstallApp';
import { PreferencesForm } from './PreferencesForm';
import { SignOutButton } from './SignOutButton';

/** The file name the server suggests (Content-Disposition), else one of the same form. */
export function exportFileName(disposition: string | null, now = new Date()): string {
  const m = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return m?.[1] ?? `pingme-export-${now.toISOString().slice(0, 10)}.json`;
}

async function downloadMyData(): Promise<void> {
  const res = await fetch('/api/export', { credentials: 'include' });
  if (!res.ok) throw new Error(`${res.status}`);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = exportFileName(res.headers.get('Content-Disposition'));
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function SettingsTab({ me }: { me: SelfUser }) {
  const [downloading, setDownloading] = useState(false);

  const onDownload = async () => {
    setDownloading(true);
    try {
      await downloadMyData();
      toast({ title: 'Your data is downloading', description: 'A JSON file with everything.' });
    } catch {
      toast({
        title: 'Error',
        description: 'Could not download your data. Please check your connection and try again.',
        variant: 'destructive',
      });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="pf-settings">
      {me.isAdmin && (
        <section className="card pf-overview-card" aria-labelledby="settings-admin">
          <h3 id="settings-admin" className="pf-overview-card__title">
            Admin
          </h3>
          <Link to="/admin" className={buttonClass('primary', 'md', true)}>
            Open Admin Dashboard
          </Link>
        </section>
      )}
      <section className="card pf-overview-card" aria-labelledby="settings-privacy">
        <h3 id="settings-privacy" className="pf-overview-card__title">
          Privacy and safety
        </h3>
        <div className="pf-settings-links">
          <Link to="/privacy-settings" className={buttonClass('secondary', 'md', true)}>
            Privacy Settings
          </Link>
          <Button variant="secondary" block loading={downloading} onClick={() => void onDownload()}>
            Download My Data
          </Button>
          <SignOutButton />
        </div>
        <SafetySettings me={me} />
      </section>
      <section className="card pf-overview-card" aria-labelledby="settings-notifications">
        <h3 id="settings-notifications" className="pf-overview-card__title">
          Notifications
        </h3>
        <NotificationsToggle />
      </section>
      <section className="card pf-overview-card" aria-labelledby="settings-preferences">
        <h3 id="settings-preferences" className="pf-overview-card__title">
          Preferences
        </h3>
        <PreferencesForm me={me} />
      </section>
      <section className="card pf-overview-card" aria-labelledby="settings-app">
        <h3 id="settings-app" className="pf-overview-card__title">
          App
        </h3>
        <InstallApp />
      </section>
    </div>
  );
}
