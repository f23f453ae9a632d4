/**
 * The extended profile view (spec section 2): the hero, the anchors row and the tabs Overview,
 * Moments, Packs and, for the owner only, Settings.
 */
import { useState } from 'react';
import { useSession } from '../../stores';
import { Screen } from '../Screen';
import { Tabs, type TabItem } from '../Tabs';
import { AnchorsRow } from './AnchorsRow';
import { MomentsTab } from './MomentsTab';
import { FriendOverview, OwnOverview } from './OverviewTab';
import { PacksTab } from './PacksTab';
import { ProfileEditDialog } from './ProfileEditForm';
import { ProfileHero } from './ProfileHero';
import { SettingsTab } from './SettingsTab';
import { InviteLinkCard } from '../friends/InviteLink';
import { BackButton } from './SimpleProfile';
import type { ProfileData } from './useProfileData';

export function ExtendedProfile({ data, userId }: { data: ProfileData; userId: string }) {
  const meId = useSession((s) => s.user?.id);
  const [tab, setTab] = useState('overview');
  const [editing, setEditing] = useState(false);
  if (!meId || !data.person) return null;
  const { isOwn, self, counts } = data;

  const items: TabItem[] = [
    {
      value: 'overview',
      label: 'Overview',
      content: isOwn ? (
        <OwnOverview meId={meId} friends={counts.friends} />
      ) : (
        <FriendOverview meId={meId} friendId={userId} friends={counts.friends} />
      ),
    },
    {
      value: 'moments',
      label: 'Moments',
      content: <MomentsTab meId={meId} friendId={isOwn ? undefined : userId} />,
    },
    {
      value: 'packs',
      label: 'Packs',
      content: <PacksTab meId={meId} title={isOwn ? 'Your Ping Packs' : 'Ping Packs'} />,
    },
  ];
  if (isOwn && self)
    items.push({ value: 'settings', label: 'Settings', content: <SettingsTab me={self} /> });

  return (
    <Screen
      title="Profile"
      className="profile profile--extended"
      aside={isOwn ? undefined : <BackButton />}
    >
      <ProfileHero data={data} onEdit={() => setEditing(true)} />
      <AnchorsRow meId={meId} isOwn={isOwn} profileId={userId} />
      {isOwn && self && <InviteLinkCard user={self} />}
      <Tabs label="Profile sections" value={tab} onValueChange={setTab} items={items} />
      {isOwn && self && <ProfileEditDialog me={self} open={editing} onOpenChange={setEditing} />}
    </Screen>
  );
}
