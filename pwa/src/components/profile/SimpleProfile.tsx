/**
 * The simple profile view (spec section 2): back, avatar with the owner's photo buttons, name,
 * e-mail (own or friend), the tagline (editable by the owner), stat cards, the owner's custom
 * prompts and settings links; non-friends see name, avatar, counts and a lock.
 */
import { displayName } from '@pingme/shared';
import { useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { ButtonLink } from '../ButtonLink';
import { PersonSafetyActions } from '../safety/PersonSafetyActions';
import { SafetySettings } from '../safety/SafetySettings';
import { Screen } from '../Screen';
import { CustomPrompts } from './CustomPrompts';
import { FriendActions } from './FriendActions';
import { LockedCard } from './LockedCard';
import { PhotoButtons } from './PhotoButtons';
import { ProfileEditDialog } from './ProfileEditForm';
import { seesFullProfile } from './profile-rules';
import { SignOutButton } from './SignOutButton';
import { TaglineEditor } from './TaglineEditor';
import { InviteLinkCard } from '../friends/InviteLink';
import type { ProfileData } from './useProfileData';

export function SimpleProfile({ data }: { data: ProfileData }) {
  const { person, self, isOwn, relation, counts } = data;
  const [editing, setEditing] = useState(false);
  if (!person) return null;
  const full = seesFullProfile(relation);
  const stats: [string, number | null][] = [
    ['Friends', counts.friends],
    ['Pings', counts.pings],
  ];
  if (relation === 'friends') stats.push(['Unread', counts.unread]);

  return (
    <Screen title="Profile" className="profile profile--simple" aside={<BackButton />}>
      <section className="card profile-simple" aria-label={displayName(person)}>
        <Avatar user={person} size="xl" className="profile-simple__avatar" />
        {isOwn && <PhotoButtons view="simple" hasPhoto={!!person.profileImageUrl} />}
        <h2 className="profile-simple__name">{displayName(person)}</h2>
        {full && person.email && <p className="profile-simple__email">{person.email}</p>}
        {full && <TaglineEditor me={isOwn ? self : null} tagline={person.tagline ?? null} />}
        {relation === 'friends' && <FriendActions friendId={person.id} />}
        {!isOwn && <PersonSafetyActions userId={person.id} name={displayName(person)} />}
        {isOwn && (
          <Button size="sm" variant="link" onClick={() => setEditing(true)}>
            Edit profile (username, bio, status)
          </Button>
        )}
      </section>

      <ul className="pf-stat-cards" aria-label="Numbers">
        {stats.map(([label, value]) => (
          <li key={label} className="pf-stat-card">
            <strong className="pf-stat-card__value">{value ?? '–'}</strong>
            <span className="pf-stat-card__label">{label}</span>
          </li>
        ))}
      </ul>

      {!full && <LockedCard />}
      {isOwn && self && <CustomPrompts ownerId={self.id} />}
      {isOwn && self && <InviteLinkCard user={self} />}
      {isOwn && (
        <section className="card profile-section" aria-labelledby="simple-settings-title">
          <h2 id="simple-settings-title" className="card__title card__title--sm">
            Settings
          </h2>
          <div className="pf-settings-links">
            <ButtonLink to="/privacy-settings" variant="secondary" block>
              Privacy Settings
            </ButtonLink>
            <ButtonLink to="/privacy-settings" variant="secondary" block>
              App Settings
            </ButtonLink>
            <SignOutButton />
          </div>
          {self && <SafetySettings me={self} />}
        </section>
      )}
      {isOwn && self && <ProfileEditDialog me={self} open={editing} onOpenChange={setEditing} />}
    </Screen>
  );
}

/** Back to where the person came from, else Home. */
export function BackButton() {
  const router = useRouter();
  return (
    <Button
      size="sm"
      variant="ghost"
      className="pf-back-button"
      onClick={() =>
        window.history.length > 1 ? router.history.back() : router.navigate({ to: '/' })
      }
    >
      <span aria-hidden="true">←</span> Back
    </Button>
  );
}
