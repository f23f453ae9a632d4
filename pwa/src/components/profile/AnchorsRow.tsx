/**
 * The anchors row of the extended profile: one tile per anchor (the friend's avatar and the
 * label cut at 20 characters, else their first name), 'Pending' until the friend accepts, and an
 * Add Anchor tile for the owner while fewer than 5 anchors exist.
 */
import { LIMITS, type Anchor } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState, type CSSProperties } from 'react';
import { db } from '../../db';
import { AnchorDialog } from '../../dialogs/AnchorDialog';
import { activeAnchors, anchorPartnerId } from '../../dialogs/anchor-templates';
import { Avatar } from '../Avatar';
import { anchorCaption } from './profile-rules';

export function AnchorsRow({
  meId,
  isOwn,
  profileId,
}: {
  meId: string;
  isOwn: boolean;
  profileId: string;
}) {
  const [adding, setAdding] = useState(false);
  const rows = useLiveQuery(async () => {
    const anchors = activeAnchors((await db.anchors.toArray()) as Anchor[], meId).filter(
      (a) => isOwn || anchorPartnerId(a, meId) === profileId,
    );
    const people = await db.users.bulkGet(anchors.map((a) => anchorPartnerId(a, meId)));
    return anchors.map((a, i) => ({ anchor: a, person: people[i] ?? null }));
  }, [meId, isOwn, profileId]);
  if (!rows) return null;
  if (!isOwn && rows.length === 0) return null;

  return (
    <section className="card profile-section" aria-labelledby="anchors-title">
      <h2 id="anchors-title" className="card__title card__title--sm">
        {isOwn ? 'Anchors' : 'Your anchor'}
      </h2>
      <ul className="pf-anchors-row">
        {rows.map(({ anchor, person }) => {
          const partner = person ?? (anchor.userId === meId ? anchor.friend : anchor.user);
          const caption = anchorCaption(anchor, partner);
          const pending = anchor.status === 'pending';
          return (
            <li
              key={anchor.id}
              className="pf-anchor-tile"
              style={{ '--anchor-color': anchor.color || '#FF8A65' } as CSSProperties}
              data-status={pending ? 'pending' : 'connected'}
            >
              <span className="pf-anchor-tile__ring">
                <Avatar user={partner} size="md" />
                <span className="pf-anchor-tile__emoji" aria-hidden="true">
                  {anchor.emoji}
                </span>
              </span>
              <span className="pf-anchor-tile__caption" title={anchor.label ?? undefined}>
                {caption}
              </span>
              <span className="pf-anchor-tile__state">
                {pending ? (anchor.userId === meId ? 'Pending' : 'Asked you') : 'Connected'}
              </span>
            </li>
          );
        })}
        {isOwn && rows.length < LIMITS.anchors && (
          <li className="pf-anchor-tile pf-anchor-tile--add">
            <button type="button" className="pf-anchor-tile__add" onClick={() => setAdding(true)}>
              <span className="pf-anchor-tile__plus" aria-hidden="true">
                +
              </span>
              <span className="pf-anchor-tile__caption">Add Anchor</span>
            </button>
          </li>
        )}
      </ul>
      {isOwn && rows.length === 0 && (
        <p className="profile-muted">Pin a ping to a close friend so they can reach you fast.</p>
      )}
      {isOwn && <AnchorDialog open={adding} onOpenChange={setAdding} />}
    </section>
  );
}
