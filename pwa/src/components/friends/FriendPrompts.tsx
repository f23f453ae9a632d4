/**
 * 'Your Prompts' on /friends (spec: the friends screen's assign-prompt and create-prompt
 * dialogs; the profile's 'Create Prompt' leads here). Reuses the Library's dialogs.
 */
import { DEFAULT_PROMPT_EMOJI, type Prompt } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { db } from '../../db';
import { isPending } from '../../sync/local-write';
import { Button } from '../Button';
import { FriendsSection } from './FriendsSection';
import { useFriends } from '../home/useHomeData';
import { AssignPromptDialog } from '../../dialogs/AssignPromptDialog';
import { CreatePromptDialog } from '../../dialogs/CreatePromptDialog';
import '../../styles/library.css';

export function FriendPrompts({ meId }: { meId: string }) {
  const prompts = useLiveQuery(
    async () =>
      (await db.prompts.where('ownerId').equals(meId).toArray()).sort((a, b) =>
        b.createdAt.localeCompare(a.createdAt),
      ),
    [meId],
  );
  const friends = useFriends();
  const [creating, setCreating] = useState(false);
  const [assigning, setAssigning] = useState<Prompt | null>(null);

  return (
    <FriendsSection
      id="my-prompts-title"
      title="Your Prompts"
      className="card fr-prompts-card"
      aside={
        <Button size="sm" variant="secondary" onClick={() => setCreating(true)}>
          Create Prompt
        </Button>
      }
    >
      {prompts && prompts.length === 0 && (
        <p className="fr-muted">Write your own prompts and assign them to friends.</p>
      )}
      {prompts && prompts.length > 0 && (
        <ul className="fr-people">
          {prompts.map((p) => (
            <li key={p.id} className="fr-person">
              <span className="fr-prompt__emoji" aria-hidden="true">
                {p.emoji || DEFAULT_PROMPT_EMOJI}
              </span>
              <div className="fr-person__text">
                <span className="fr-person__name">{p.text}</span>
                <span className="fr-person__detail">
                  {isPending(p)
                    ? 'Saving…'
                    : `Assigned to ${p.assignments.length} ${p.assignments.length === 1 ? 'friend' : 'friends'}`}
                </span>
              </div>
              <Button size="sm" variant="secondary" onClick={() => setAssigning(p)}>
                Assign<span className="visually-hidden"> “{p.text}”</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <CreatePromptDialog open={creating} meId={meId} onOpenChange={setCreating} />
      <AssignPromptDialog
        prompt={assigning}
        friends={friends ?? []}
        onOpenChange={(open) => {
          if (!open) setAssigning(null);
        }}
      />
    </FriendsSection>
  );
}
