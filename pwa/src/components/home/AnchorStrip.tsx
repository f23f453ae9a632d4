/**
 * The Anchor Pings strip: one tile per anchor (the other person's avatar, emoji and colour,
 * '#FF8A65' when it has none; the asker's own label for the asker, the other person's name for
 * anyone else: a label is the asker's words about their friend). Tapping an accepted anchor sends
 * its ping to the other person (writes/pings.ts); a request still waiting for the friend shows as
 * such; a request to me opens Accept / Decline. 'Add Anchor' opens the anchor dialog while fewer
 * than 5 anchors exist.
 */
import { sentOrSaved } from '../../lib/sent-toast';
import {
  ANCHOR_COLOR_DISPLAY_DEFAULT,
  LIMITS,
  displayName,
  truncateLabel,
  type Anchor,
  type SelfUser,
} from '@pingme/shared';
import { useState, type CSSProperties } from 'react';
import { AnchorDialog } from '../../dialogs/AnchorDialog';
import { toast } from '../../stores';
import { Avatar } from '../Avatar';
import { cx } from '../cx';
import { ClockIcon } from '../icons';
import { AnchorRequestDialog } from './AnchorRequestDialog';
import { HomeSection } from './HomeSection';
import { CUSTOM_PING_ERROR, sendPing } from '../../writes/pings';
import { usePingDelivery } from './usePingDelivery';

export interface AnchorStripProps {
  me: SelfUser;
  anchors: readonly Anchor[];
  /** Pending and accepted anchors the person is part of (they count to the limit of 5). */
  activeCount: number;
}

export function AnchorStrip({ me, anchors, activeCount }: AnchorStripProps) {
  const [dialogOpen, setDialogOpen] = useState(false);
  return (
    <HomeSection
      id="anchors-title"
      title="Anchor Pings"
      aside={
        <span className="home-section__meta">
          {activeCount}/{LIMITS.anchors}
        </span>
      }
    >
      <ul className="anchor-strip" data-scroll-x="">
        {anchors.map((a) => (
          <li key={a.id}>
            <AnchorTile me={me} anchor={a} />
          </li>
        ))}
        {activeCount < LIMITS.anchors && (
          <li>
            <button
              type="button"
              className="anchor-tile anchor-tile--add"
              onClick={() => setDialogOpen(true)}
            >
              <span className="anchor-tile__emoji" aria-hidden="true">
                +
              </span>
              <span className="anchor-tile__label">Add Anchor</span>
            </button>
          </li>
        )}
      </ul>
      {anchors.length === 0 && (
        <p className="home-section__hint">
          Pin a ping to a close friend, so either of you can reach the other in one tap.
        </p>
      )}
      <AnchorDialog open={dialogOpen} onOpenChange={setDialogOpen} />
    </HomeSection>
  );
}

function AnchorTile({ me, anchor }: { me: SelfUser; anchor: Anchor }) {
  const [sentId, setSentId] = useState<string | null>(null);
  const [answering, setAnswering] = useState(false);
  const delivery = usePingDelivery(sentId);
  const mine = anchor.userId === me.id;
  const partner = mine ? anchor.friend : anchor.user;
  const label =
    mine && anchor.label ? truncateLabel(anchor.label) : partner.firstName || displayName(partner);
  const colour = anchor.color || ANCHOR_COLOR_DISPLAY_DEFAULT;
  const asked = anchor.status !== 'accepted' && !mine;
  const waiting = anchor.status !== 'accepted' && mine;
  const sending = delivery === 'sending';

  const send = async () => {
    try {
      const [sent] = await sendPing(me, partner, { kind: 'anchor', anchor }, CUSTOM_PING_ERROR);
      setSentId(sent!.id);
      toast(
        sentOrSaved({
          title: 'Anchor ping sent! ⚓',
          description: `${displayName(partner)} will get it right away.`,
          variant: 'success',
        }),
      );
    } catch {
      toast({
        title: 'Failed to send',
        description: 'Could not send your custom ping',
        variant: 'destructive',
      });
    }
  };

  const status = asked ? 'Asks you' : waiting ? 'Waiting for reply' : sending ? 'Sending…' : null;
  const who = displayName(partner);
  return (
    <div
      className={cx('anchor-tile', (waiting || sending) && 'anchor-tile--quiet')}
      style={{ '--anchor-colour': colour } as CSSProperties}
    >
      <span className="anchor-tile__avatar" aria-hidden="true">
        <Avatar user={partner} size="md" />
        <span className="anchor-tile__emoji-badge">{anchor.emoji}</span>
      </span>
      {/* The button covers the whole tile (::after); its name says what a tap does. */}
      <button
        type="button"
        className="anchor-tile__label stretched-link"
        disabled={waiting || sending}
        onClick={asked ? () => setAnswering(true) : send}
      >
        <span className="visually-hidden">
          {asked
            ? `Anchor request from ${who}, answer: `
            : waiting
              ? `Anchor request to ${who}, waiting for reply: `
              : `Send anchor ping to ${who}: `}
        </span>
        {label}
      </button>
      {status && (
        <span className="anchor-tile__status" aria-live="polite">
          <ClockIcon aria-hidden="true" /> {status}
        </span>
      )}
      {asked && (
        <AnchorRequestDialog anchor={anchor} open={answering} onOpenChange={setAnswering} />
      )}
    </div>
  );
}
