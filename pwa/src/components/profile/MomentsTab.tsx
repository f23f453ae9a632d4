/**
 * Moments tab: the person's bookmarked pings (Dexie `moments`), newest first, with title,
 * optional description and date. On a friend's profile: your moments from pings with them.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db';
import { shortDate } from './profile-rules';

export function MomentsTab({ meId, friendId }: { meId: string; friendId?: string }) {
  const moments = useLiveQuery(async () => {
    const all = await db.moments.orderBy('createdAt').reverse().toArray();
    if (!friendId) return all;
    const pings = await db.pings.bulkGet(all.map((m) => m.pingId));
    return all.filter((_, i) => {
      const p = pings[i];
      return (
        p &&
        ((p.senderId === friendId && p.receiverId === meId) ||
          (p.senderId === meId && p.receiverId === friendId))
      );
    });
  }, [meId, friendId]);

  if (moments === undefined) return <p className="profile-muted">Loading…</p>;
  if (moments.length === 0) {
    return (
      <div className="card profile-empty">
        <span className="profile-empty__icon" aria-hidden="true">
          ✨
        </span>
        <p>No moments yet—bookmark a ping that made you smile.</p>
      </div>
    );
  }
  return (
    <ul className="pf-moment-list">
      {moments.map((m) => (
        <li key={m.id} className="card pf-moment">
          <h3 className="pf-moment__title">{m.title}</h3>
          {m.description && <p className="pf-moment__description">{m.description}</p>}
          <time className="pf-moment__date" dateTime={m.createdAt}>
            {shortDate(m.createdAt)}
          </time>
        </li>
      ))}
    </ul>
  );
}
