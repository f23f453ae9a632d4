/**
 * Send a ping to one friend (/ping-friend/{friendId}): a prompt (the defaults, then your own)
 * or a custom ping, through the outbox; then back to the friend's profile.
 */
import { displayName, type Prompt } from '@pingme/shared';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { Avatar } from '../components/Avatar';
import { ButtonLink } from '../components/ButtonLink';
import { Screen } from '../components/Screen';
import { ScreenLoading } from '../components/common/ScreenLoading';
import { BackIcon } from '../components/icons';
import { SendToFriend } from '../components/friends/SendToFriend';
import { summaryOf } from '../writes/pending';
import { useFriend } from '../components/friends/useFriendProfile';
import { db } from '../db';
import { useSession } from '../stores';
import '../styles/friends.css';

/** Default prompts in display order (their fixed ids sort that way), then mine, newest first. */
function usePromptList(meId: string | undefined): Prompt[] | undefined {
  return useLiveQuery(async () => {
    const all = await db.prompts.toArray();
    const defaults = all.filter((p) => p.isDefault).sort((a, b) => a.id.localeCompare(b.id));
    const mine = all
      .filter((p) => !p.isDefault && p.ownerId === meId)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return [...defaults, ...mine];
  }, [meId]);
}

export function PingFriendScreen() {
  const { friendId } = useParams({ from: '/ping-friend/$friendId' });
  const navigate = useNavigate();
  const me = useSession((s) => s.user);
  const friend = useFriend(friendId);
  const prompts = usePromptList(me?.id);
  const back = (
    <Link to="/friend/$friendId" params={{ friendId }} className="fr-back">
      <BackIcon /> Back
    </Link>
  );

  if (!me || friend === undefined) {
    return <ScreenLoading title="Send a Ping" />;
  }
  if (friend === null) {
    return (
      <Screen title="Send a Ping">
        <div className="card card--muted fr-empty">
          <p className="fr-empty__title">Friend not found</p>
          <p className="fr-muted">You can only ping your friends.</p>
          <ButtonLink to="/friends" variant="secondary" size="sm">
            Back to Friends
          </ButtonLink>
        </div>
      </Screen>
    );
  }
  return (
    <Screen title="Send a Ping" className="ping-friend" aside={back}>
      <div className="card ping-friend__to">
        <Avatar user={friend} size="md" />
        <p>
          To <strong>{displayName(friend)}</strong>
        </p>
      </div>
      <div className="card">
        <SendToFriend
          me={summaryOf(me)}
          friend={summaryOf(friend)}
          prompts={prompts ?? []}
          onSent={() => void navigate({ to: '/friend/$friendId', params: { friendId } })}
        />
      </div>
    </Screen>
  );
}
