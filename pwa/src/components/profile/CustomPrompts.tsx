/** 'Your Custom Prompts' on the owner's simple profile: emoji, text and delete. */
import { emojiFor } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db';
import { toast } from '../../stores';
import { isPending } from '../../sync/local-write';
import { deletePrompt } from '../../writes/prompts';
import { Button } from '../Button';
import { ButtonLink } from '../ButtonLink';

export function CustomPrompts({ ownerId }: { ownerId: string }) {
  const prompts = useLiveQuery(
    async () =>
      (await db.prompts.where('ownerId').equals(ownerId).toArray())
        .filter((p) => !p.isDefault)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    [ownerId],
  );

  const remove = async (id: string) => {
    await deletePrompt(id, { description: 'Failed to delete prompt. Please try again.' });
    toast({ title: 'Prompt deleted successfully!', variant: 'success' });
  };

  return (
    <section className="card profile-section" aria-labelledby="custom-prompts-title">
      <h2 id="custom-prompts-title" className="card__title card__title--sm">
        Your Custom Prompts
      </h2>
      {prompts === undefined ? null : prompts.length === 0 ? (
        <div className="profile-empty">
          <p>You haven’t created any prompts yet.</p>
          <ButtonLink to="/friends" size="sm">
            Create Prompt
          </ButtonLink>
        </div>
      ) : (
        <ul className="pf-prompt-rows">
          {prompts.map((p) => (
            <li key={p.id} className="pf-prompt-row">
              <span className="pf-prompt-row__emoji" aria-hidden="true">
                {p.emoji || emojiFor(p.text)}
              </span>
              <span className="pf-prompt-row__text">
                {p.text}
                {isPending(p) && <span className="pf-pending-tag"> · Saving…</span>}
              </span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Delete prompt: ${p.text}`}
                onClick={() => void remove(p.id)}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
