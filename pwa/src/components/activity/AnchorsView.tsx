/** The Anchors filter: anchor requests to answer, this week's anchor activity, active anchors. */
import { displayName, truncateLabel } from '@pingme/shared';
import { Avatar } from '../Avatar';
import { FriendsSection } from '../friends/FriendsSection';
import { ActivityList } from './ActivityList';
import { AnchorRequestsSection } from './AnchorRequestRow';
import { EmptyState } from './FeedParts';
import {
  activeAnchors,
  activityItems,
  anchorOther,
  anchorRequests,
  filterActivity,
  type ActivityItem,
  type FeedInput,
} from './feed';

/** `items`: the screen's activityItems(input), already derived (a long history costs to list). */
export function AnchorsView({
  input,
  items,
}: {
  input: FeedInput;
  items?: readonly ActivityItem[];
}) {
  const requests = anchorRequests(input.anchors, input.meId);
  const active = activeAnchors(input.anchors);
  const activity = filterActivity(items ?? activityItems(input), 'anchors');
  if (requests.length === 0 && active.length === 0) {
    return (
      <EmptyState icon="⚓" title="No anchors yet">
        Anchor pings pin a one-tap ping to a close friend.
      </EmptyState>
    );
  }
  return (
    <div className="act-anchors">
      <AnchorRequestsSection titleId="anchor-requests-title" anchors={requests} now={input.now} />
      {activity.length > 0 && (
        <FriendsSection id="anchor-activity-title" title="This week">
          <ActivityList items={activity} now={input.now} />
        </FriendsSection>
      )}
      <FriendsSection id="active-anchors-title" title="Active Anchors">
        {active.length === 0 ? (
          <p className="fr-muted">No active anchors yet.</p>
        ) : (
          <ul className="act-list">
            {active.map((a) => {
              const other = anchorOther(a, input.meId);
              return (
                <li key={a.id} className="act-item">
                  <Avatar user={other} size="md" />
                  <div className="act-item__body">
                    <p className="act-item__text">
                      <strong>{displayName(other)}</strong>
                    </p>
                    <p className="act-anchor-quote">
                      <span aria-hidden="true">{a.emoji}</span>{' '}
                      {a.label ? truncateLabel(a.label) : a.text}
                    </p>
                  </div>
                  <span className="act-status act-status--anchor">Anchor</span>
                </li>
              );
            })}
          </ul>
        )}
      </FriendsSection>
    </div>
  );
}
