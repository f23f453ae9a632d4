/** Your profile (/profile), minimal for now: who you are, privacy settings and Sign Out. */
import { displayName } from '@pingme/shared';
import { Link, createRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Avatar } from '../components/Avatar';
import { Button, buttonClass } from '../components/Button';
import { Screen } from '../components/Screen';
import { signOut } from '../session';
import { useSession } from '../stores';
import { rootRoute } from './__root';
import { guard } from './guard';

export const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile',
  beforeLoad: guard('member-told'),
  component: ProfileScreen,
});

function ProfileScreen() {
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  if (!user) return null;

  const onSignOut = async () => {
    setLeaving(true);
    await signOut(() => navigate({ to: '/', replace: true }));
  };

  return (
    <Screen title="Profile">
      <section className="card profile-card" aria-label="You">
        <Avatar user={user} size="xl" />
        <p className="profile-card__name">{displayName(user)}</p>
        {user.email && <p className="profile-card__email">{user.email}</p>}
      </section>
      <section className="card settings-list" aria-labelledby="settings-title">
        <h2 id="settings-title" className="card__title card__title--sm">
          Settings
        </h2>
        <Link to="/privacy-settings" className={buttonClass('secondary', 'md', true)}>
          Privacy Settings
        </Link>
        <Button variant="danger" block loading={leaving} onClick={() => void onSignOut()}>
          Sign Out
        </Button>
      </section>
    </Screen>
  );
}
