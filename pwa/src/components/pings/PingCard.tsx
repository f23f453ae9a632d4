/**
 * One ping (spec: "Ping cards and banner"). A received card shows the sender, the receiver's
 * wording, the unread dot and three reaction buttons, and is marked read 1 s after it is seen;
 * a sent card shows who it went to, 'Sending…' while its write waits ('Waiting to send' while the
 * device cannot reach the server), and their reaction. Both can be bookmarked, and both show the
 * time it was written and, when later by more than a minute, the time it arrived (lib/ping-times).
 */
import { DELAYS_MS, REACTION_TYPES, displayName, type ReactionType } from '@pingme/shared';
import { useEffect, useRef } from 'react';
import { selectOnline, useConnectivity, useSession } from '../../stores';
import { isPending } from '../../sync/local-write';
import { pingEmoji, pingText } from '../../lib/ping-text';
import { pingTimes } from '../../lib/ping-times';
import { bookmarkPing, markPingRead, reactToPing, type LocalPing } from '../../writes/pings';
import { Avatar } from '../Avatar';
import { cx } from '../cx';
import { ReportPingButton } from '../safety/ReportPingButton';
import { usePerson } from './usePings';

export const REACTIONS: Record<ReactionType, { title: string; icon: string }> = {
  heart: { title: 'Love it!', icon: '❤️' },
  yes: { title: 'Yes!', icon: '👍' },
  wow: { title: 'Amazing!', icon: '🌟' },
};

export function PingCard({ ping, now = Date.now() }: { ping: LocalPing; now?: number }) {
  const me = useSession((s) => s.user);
  const received = ping.receiverId === me?.id;
  const otherId = received ? ping.senderId : ping.receiverId;
  const stored = usePerson(otherId);
  const other = stored ?? (received ? ping.sender : ping.receiver);
  const firstName = other.firstName || displayName(other);
  const unread = received && !ping.isRead;
  const ref = useMarkReadWhenSeen(unread ? ping : null);
  const sending = !received && isPending(ping);
  const mine = ping.reactions.find((r) => r.userId === me?.id);
  const theirs = ping.reactions.find((r) => r.userId !== me?.id);
  const text = pingText(ping, me?.id);
  const online = useConnectivity(selectOnline);

  return (
    <article
      ref={ref}
      className={cx('ping-card', unread && 'ping-card--unread', sending && 'ping-card--sending')}
      aria-label={received ? `Ping from ${firstName}` : `Ping to ${firstName}`}
      data-ping-id={ping.id}
    >
      <header className="ping-card__head">
        <Avatar user={other} size="md" />
        <div className="ping-card__who">
          <strong>{received ? firstName : `To ${firstName}`}</strong>
          <span className="ping-card__time">
            {sending ? (
              <span className="ping-card__pending" data-testid="ping-pending">
                <span aria-hidden="true">🕓</span> {online ? 'Sending…' : 'Waiting to send'}
              </span>
            ) : (
              <PingTime ping={ping} now={now} />
            )}
          </span>
        </div>
        {unread && (
          <span
            className="ping-card__dot"
            role="img"
            aria-label="Unread"
            data-testid="unread-dot"
          />
        )}
        <BookmarkButton ping={ping} />
        {received && <ReportPingButton pingId={ping.id} name={firstName} />}
      </header>
      <p className="ping-card__text">
        <span className="ping-card__emoji" aria-hidden="true">
          {pingEmoji(ping)}
        </span>
        {text}
      </p>
      {received ? (
        <ReactionBar ping={ping} userId={me?.id} mine={mine?.reactionType} />
      ) : (
        theirs && (
          <p className="ping-card__reacted" data-testid="their-reaction">
            {firstName} reacted{' '}
            <span role="img" aria-label={REACTIONS[theirs.reactionType].title}>
              {REACTIONS[theirs.reactionType].icon}
            </span>
          </p>
        )
      )}
    </article>
  );
}

function PingTime({ ping, now }: { ping: LocalPing; now: number }) {
  const t = pingTimes(ping, now);
  if (t.kind === 'one') return <time dateTime={t.at}>{t.text}</time>;
  return (
    <span data-testid="ping-written">
      <time dateTime={t.writtenAt}>{t.written}</time>
      {' · '}
      <time dateTime={t.arrivedAt}>{t.arrived}</time>
    </span>
  );
}

function BookmarkButton({ ping }: { ping: LocalPing }) {
  const on = ping.isBookmarked;
  const toggle = () => {
    void bookmarkPing(ping, !on).catch((err) => console.warn('bookmark failed', err));
  };
  return (
    <button
      type="button"
      className={cx('ping-card__bookmark', on && 'ping-card__bookmark--on')}
      aria-pressed={on}
      aria-label="Bookmark"
      title={on ? 'Remove bookmark' : 'Bookmark this ping'}
      onClick={toggle}
    >
      <span aria-hidden="true">{on ? '★' : '☆'}</span>
    </button>
  );
}

function ReactionBar(props: { ping: LocalPing; userId: string | undefined; mine?: ReactionType }) {
  const { ping, userId, mine } = props;
  const busy = isPending(ping) && !!ping.pendingReaction;
  const react = (type: ReactionType) => {
    if (!userId || busy) return;
    void reactToPing(ping, userId, type).catch((err) => console.warn('reaction failed', err));
  };
  return (
    <div className="ping-card__reactions" role="group" aria-label="React">
      {REACTION_TYPES.map((type) => (
        <button
          key={type}
          type="button"
          className={cx('reaction', mine === type && 'reaction--mine')}
          title={REACTIONS[type].title}
          aria-label={REACTIONS[type].title}
          aria-pressed={mine === type}
          disabled={busy}
          onClick={() => react(type)}
        >
          <span aria-hidden="true">{REACTIONS[type].icon}</span>
        </button>
      ))}
      {mine && <span className="ping-card__you-reacted">You reacted</span>}
    </div>
  );
}

/** Spec section 4: unread becomes read about 1 s after the card is shown (once per card). */
function useMarkReadWhenSeen(ping: LocalPing | null) {
  const ref = useRef<HTMLElement>(null);
  const latest = useRef(ping);
  latest.current = ping;
  const id = ping?.id;
  useEffect(() => {
    const el = ref.current;
    if (!id || !el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      timer ??= setTimeout(() => {
        const current = latest.current;
        if (current && !current.isRead) {
          void markPingRead(current).catch((err) => console.warn('mark-read failed', err));
        }
      }, DELAYS_MS.markReadCard);
    };
    if (typeof IntersectionObserver === 'undefined') {
      start();
      return () => clearTimeout(timer);
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) start();
      else {
        clearTimeout(timer);
        timer = undefined;
      }
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [id]);
  return ref;
}
