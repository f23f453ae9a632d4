/**
 * Settings tab, owner only: the admin's dashboard button, privacy and safety (privacy settings,
 * 'Download My Data' = GET /api/export saved as a file, Sign Out, then components/safety:
 * change password, sign out everywhere, blocked people, delete account), preferences, and the
 * app itself (install, version).
 */
import type { SelfUser } from '@pingme/shared';
import { toast } from '../../stores';
import { Button } from '../Button';
import { ButtonLink } from '../ButtonLink';
import { useBusyWrite } from '../common/useBusyWrite';
import { NotificationsToggle } from '../pings/NotificationsToggle';
import { SafetySettings } from '../safety/SafetySettings';
import { InstallApp } from './InstallApp';
import { PreferencesForm } from './PreferencesForm';
import { ProfileCard } from './ProfileCard';
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
  const { busy: downloading, run } = useBusyWrite();

  const onDownload = () =>
    run(
      async () => {
        await downloadMyData();
        toast({ title: 'Your data is downloading', description: 'A JSON file with everything.' });
      },
      { description: 'Could not download your data. Please check your connection and try again.' },
    );

  return (
    <div className="pf-settings">
      {me.isAdmin && (
        <ProfileCard id="settings-admin" title="Admin">
          <ButtonLink to="/admin" block>
            Open Admin Dashboard
          </ButtonLink>
        </ProfileCard>
      )}
      <ProfileCard id="settings-privacy" title="Privacy and safety">
        <div className="pf-settings-links">
          <ButtonLink to="/privacy-settings" variant="secondary" block>
            Privacy Settings
          </ButtonLink>
          <Button variant="secondary" block loading={downloading} onClick={() => void onDownload()}>
            Download My Data
          </Button>
          <SignOutButton />
        </div>
        <SafetySettings me={me} />
      </ProfileCard>
      <ProfileCard id="settings-notifications" title="Notifications">
        <NotificationsToggle />
      </ProfileCard>
      <ProfileCard id="settings-preferences" title="Preferences">
        <PreferencesForm me={me} />
      </ProfileCard>
      <ProfileCard id="settings-app" title="App">
        <InstallApp />
      </ProfileCard>
    </div>
  );
}
