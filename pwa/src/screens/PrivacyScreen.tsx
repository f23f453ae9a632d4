/**
 * Privacy Settings (/privacy-settings): public or private profile (spec sections 2 and 4). The
 * change goes through the outbox (privacy.update) with an optimistic row; the switch
 * stays disabled until the server has it.
 */
import type { ProfileVisibility, SelfUser } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { db } from '../db';
import { toast, useSession } from '../stores';
import { isPending } from '../sync/local-write';
import { PRIVACY_ERROR, savePrivacy } from '../writes/profile';
import { ButtonLink } from '../components/ButtonLink';
import { CompassIcon, LockIcon } from '../components/icons';
import { Screen } from '../components/Screen';
import { Switch } from '../components/Switch';
import '../styles/profile.css';

const MODES = {
  public: {
    title: 'Public Profile',
    text: 'Anyone can find you and send friend requests',
    benefits: [
      'People can find you by name or username',
      'You show up in friend suggestions',
      'Anyone on PingMe can send you a friend request',
    ],
  },
  private: {
    title: 'Private Profile',
    text: 'Only people with your invite code can find you',
    benefits: [
      'Hidden from search and friend suggestions',
      'Only people with your invite link can add you',
      'Your friends still see your full profile',
    ],
  },
} as const;

export function PrivacyScreen() {
  const user = useSession((s) => s.user);
  const row = useLiveQuery(() => (user ? db.users.get(user.id) : undefined), [user?.id]);
  const [sending, setSending] = useState(false);
  if (!user) return null;
  const self = (row?.relation === 'self' ? row : user) as SelfUser;
  const visibility: ProfileVisibility = self.profileVisibility ?? 'public';
  const saving = sending || isPending(row);
  const mode = MODES[visibility];

  const onChange = async (isPublic: boolean) => {
    setSending(true);
    try {
      await savePrivacy(self, isPublic ? 'public' : 'private');
      toast({ title: 'Privacy settings updated successfully!', variant: 'success' });
    } catch {
      toast({ title: 'Error', description: PRIVACY_ERROR, variant: 'destructive' });
    } finally {
      setSending(false);
    }
  };

  return (
    <Screen title="Privacy Settings" className="privacy">
      <section className="card privacy-current" aria-labelledby="privacy-visibility">
        <h2 id="privacy-visibility" className="card__title card__title--sm">
          Profile visibility
        </h2>
        <Switch
          label={mode.title}
          description={mode.text}
          checked={visibility === 'public'}
          onCheckedChange={(v) => void onChange(v)}
          disabled={saving}
        />
        {saving && (
          <p className="pf-pending-note" role="status">
            Saving…
          </p>
        )}
      </section>

      <div className="privacy-modes">
        {(['public', 'private'] as const).map((key) => (
          <section
            key={key}
            className="card privacy-mode"
            data-current={key === visibility || undefined}
            aria-labelledby={`privacy-${key}`}
          >
            <span className="privacy-mode__icon" aria-hidden="true">
              {key === 'public' ? <CompassIcon /> : <LockIcon />}
            </span>
            <h3 id={`privacy-${key}`} className="privacy-mode__title">
              {MODES[key].title}
              {key === visibility && <span className="privacy-mode__badge">Current</span>}
            </h3>
            <p className="profile-muted">{MODES[key].text}</p>
            <ul className="privacy-mode__benefits">
              {MODES[key].benefits.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          </section>
        ))}
      </div>

      <aside className="card card--muted privacy-note" aria-label="Privacy note">
        <p>
          Whichever you choose, only your friends see your bio, status, moments and anchors.
          Everyone else only sees your name, photo and counts. Your invite link always works.
        </p>
      </aside>

      <ButtonLink to="/profile" variant="secondary" block>
        Back to Profile
      </ButtonLink>
    </Screen>
  );
}
