/**
 * The top of the extended profile: avatar, full name, 'Admin' badge (an admin on their own
 * profile), @handle, status, bio, location, personal link, and the Friends and Pings counts.
 */
import { displayName } from '@pingme/shared';
import { isPending } from '../../sync/local-write';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { PersonSafetyActions } from '../safety/PersonSafetyActions';
import { FriendActions } from './FriendActions';
import { PhotoButtons } from './PhotoButtons';
import { linkText, safeLink } from './profile-rules';
import { TaglineEditor } from './TaglineEditor';
import type { ProfileData } from './useProfileData';

export function ProfileHero({ data, onEdit }: { data: ProfileData; onEdit(): void }) {
  const { person, isOwn, self, counts } = data;
  if (!person) return null;
  const link = safeLink(person.personalLink);
  const pending = isPending(person);

  return (
    <section className="card profile-hero" aria-label={displayName(person)}>
      <div className="profile-hero__top">
        <Avatar user={person} size="xl" />
        <div className="profile-hero__who">
          <h2 className="profile-hero__name">
            {displayName(person)}
            {isOwn && self?.isAdmin && <span className="pf-admin-badge">Admin</span>}
          </h2>
          {person.handle && <p className="profile-hero__handle">@{person.handle}</p>}
          {person.status && <p className="profile-hero__status">{person.status}</p>}
        </div>
      </div>
      {/* The tagline Home shows under the name stays editable after setup. */}
      {isOwn && <TaglineEditor me={self} tagline={person.tagline ?? null} />}
      {person.bio && <p className="profile-hero__bio">{person.bio}</p>}
      {(person.location || link) && (
        <ul className="profile-hero__facts">
          {person.location && (
            <li>
              <span aria-hidden="true">📍</span> {person.location}
            </li>
          )}
          {link && (
            <li>
              <span aria-hidden="true">🔗</span>{' '}
              <a href={link} target="_blank" rel="noopener noreferrer">
                {linkText(link)}
              </a>
            </li>
          )}
        </ul>
      )}
      <dl className="profile-hero__counts">
        <div>
          <dt>Friends</dt>
          <dd>{counts.friends ?? '–'}</dd>
        </div>
        <div>
          <dt>Pings</dt>
          <dd>{counts.pings ?? '–'}</dd>
        </div>
      </dl>
      {data.relation === 'friends' && <FriendActions friendId={person.id} />}
      {!isOwn && <PersonSafetyActions userId={person.id} name={displayName(person)} />}
      {isOwn && (
        <div className="profile-hero__actions">
          <Button size="sm" onClick={onEdit}>
            Edit Profile
          </Button>
          <PhotoButtons view="extended" hasPhoto={!!person.profileImageUrl} />
        </div>
      )}
      {pending && (
        <p className="pf-pending-note" role="status">
          Saving your changes…
        </p>
      )}
    </section>
  );
}
