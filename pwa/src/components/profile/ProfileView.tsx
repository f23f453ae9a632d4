/** /profile and /profile/{userId}: loading, not found, or the extended or simple view. */
import { ButtonLink } from '../ButtonLink';
import { AlertIcon } from '../icons';
import { Screen } from '../Screen';
import { ExtendedProfile } from './ExtendedProfile';
import { isExtendedProfile } from './profile-rules';
import { SimpleProfile } from './SimpleProfile';
import { useProfileData } from './useProfileData';
import '../../styles/profile.css';

export function ProfileView({ userId }: { userId: string }) {
  const data = useProfileData(userId);

  if (data.status === 'loading') {
    return (
      <Screen title="Profile" className="profile">
        <div className="card profile-loading" role="status">
          <span className="spinner spinner--lg" aria-hidden="true" />
          <span>Loading profile…</span>
        </div>
      </Screen>
    );
  }
  if (data.status === 'not-found' || data.status === 'error' || !data.person) {
    const missing = data.status === 'not-found';
    return (
      <Screen title="Profile" className="profile">
        <section className="card profile-missing" aria-live="polite">
          <span className="profile-missing__icon">
            <AlertIcon />
          </span>
          <h2 className="card__title card__title--sm">
            {missing ? 'User not found' : 'Failed to fetch profile'}
          </h2>
          <p>
            {missing
              ? 'This person does not exist or their account was removed.'
              : 'Check your connection and try again.'}
          </p>
          <ButtonLink to="/" variant="secondary" size="sm">
            Go Home
          </ButtonLink>
        </section>
      </Screen>
    );
  }
  return isExtendedProfile(data.relation, data.person) ? (
    <ExtendedProfile data={data} userId={userId} />
  ) : (
    <SimpleProfile data={data} />
  );
}
