/**
 * Anchor dialog (spec sections 2, 4, 5): choose one of the eight templates or 'Create custom
 * ping', then customise text, emoji and colour, and ask the friend for an anchor. Opened from
 * Home (Add Anchor), Friends ('Friend Added!' → 'Set Anchor Ping') and the profile.
 *
 *   <AnchorDialog open={open} onOpenChange={setOpen} friendId={friend.id} />
 *
 * Without `friendId` it picks the first friend without an anchor. The write goes through the
 * outbox (POST /api/profile/anchors) with an optimistic pending anchor; when the friend had
 * already asked, the server accepts their request instead, so the optimistic row is theirs,
 * accepted ('connected').
 */
import { LIMITS, type Anchor, type SyncUser } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState, type CSSProperties } from 'react';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { db } from '../db';
import { useSession } from '../stores';
import { ANCHOR_TEMPLATES, chooseAnchorTarget, type AnchorTemplate } from './anchor-templates';
import { AnchorCustomizeForm } from './AnchorCustomizeForm';
import '../styles/profile.css';

export interface AnchorDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The friend to anchor; absent: the first friend without an anchor. */
  friendId?: string;
}

export type FriendRow = Extract<SyncUser, { relation: 'friend' }>;

export function AnchorDialog({ open, onOpenChange, friendId }: AnchorDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create an Anchor Ping"
      description="Pin a ping to a close friend, so they can reach you in one tap."
    >
      {/* Mounted only while open: every opening starts at the first step. */}
      {open && <AnchorDialogBody friendId={friendId} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function AnchorDialogBody({ friendId, onDone }: { friendId?: string; onDone(): void }) {
  const me = useSession((s) => s.user);
  const data = useLiveQuery(async () => {
    const [friends, anchors] = await Promise.all([
      db.users.where('relation').equals('friend').toArray(),
      db.anchors.toArray(),
    ]);
    return { friends: friends as FriendRow[], anchors: anchors as Anchor[] };
  }, []);
  const [template, setTemplate] = useState<AnchorTemplate | 'custom' | null>(null);

  if (!me || !data) {
    return (
      <p className="anchor-dialog__loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading your friends…
      </p>
    );
  }
  const target = chooseAnchorTarget(data.friends, data.anchors, me.id, friendId);
  if (target.kind !== 'ok') return <AnchorUnavailable target={target} onDone={onDone} />;

  if (template === null) {
    return (
      <div className="anchor-dialog">
        <h3 className="anchor-dialog__step">Choose a template</h3>
        <ul className="anchor-templates" aria-label="Anchor templates">
          {ANCHOR_TEMPLATES.map((t) => (
            <li key={t.id}>
              <button
                type="button"
                className="anchor-template"
                style={{ '--anchor-color': t.color } as CSSProperties}
                onClick={() => setTemplate(t)}
              >
                <span className="anchor-template__emoji" aria-hidden="true">
                  {t.emoji}
                </span>
                <span className="anchor-template__label">{t.label}</span>
              </button>
            </li>
          ))}
        </ul>
        <Button variant="secondary" block onClick={() => setTemplate('custom')}>
          Create custom ping
        </Button>
      </div>
    );
  }

  return (
    <AnchorCustomizeForm
      me={me}
      friends={data.friends}
      anchors={data.anchors}
      initialFriendId={target.friendId}
      template={template === 'custom' ? null : template}
      onBack={() => setTemplate(null)}
      onDone={onDone}
    />
  );
}

function AnchorUnavailable({
  target,
  onDone,
}: {
  target: Exclude<ReturnType<typeof chooseAnchorTarget>, { kind: 'ok' }>;
  onDone(): void;
}) {
  const [title, text] =
    target.kind === 'limit'
      ? [
          'Anchor limit reached',
          `You can have at most ${LIMITS.anchors} anchors. Remove one before adding another.`,
        ]
      : target.kind === 'already'
        ? ['Already anchored', 'You already have an anchor (or a request) with this friend.']
        : [
            'No Available Friends',
            'You already have anchors with all your friends, or need to add more friends first.',
          ];
  return (
    <div className="anchor-dialog__empty" role="status">
      <span className="anchor-dialog__empty-icon" aria-hidden="true">
        ⚓
      </span>
      <h3>{title}</h3>
      <p>{text}</p>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onDone}>
          Close
        </Button>
      </div>
    </div>
  );
}
