/**
 * The Ping Library (/pings, spec section 2; routes/pings.tsx loads it on first visit): the
 * person's prompts, then the default ones; each can be assigned to friends and sent to one
 * friend, and custom ones deleted; 'Create New Ping Prompt'. Reads Dexie; writes go through the
 * outbox (writes/prompts.ts, writes/pings.ts).
 */
import type { Prompt } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { Button } from '../components/Button';
import { Screen } from '../components/Screen';
import { useFriends } from '../components/home/useHomeData';
import { AssignPromptDialog } from '../dialogs/AssignPromptDialog';
import { CreatePromptDialog } from '../dialogs/CreatePromptDialog';
import { DeletePromptDialog } from '../dialogs/DeletePromptDialog';
import { libraryOrder } from '../components/library/library-rules';
import { PromptRow, type PromptRowProps } from '../components/library/PromptRow';
import { SendFromLibraryDialog } from '../dialogs/SendFromLibraryDialog';
import { db } from '../db';
import { useSession } from '../stores';
import '../styles/library.css';

type Action = { kind: 'assign' | 'send' | 'edit' | 'delete'; prompt: Prompt } | null;

export function PingLibraryScreen() {
  const me = useSession((s) => s.user);
  const meId = me?.id ?? '';
  const prompts = useLiveQuery(async () => libraryOrder(await db.prompts.toArray(), meId), [meId]);
  const friends = useFriends() ?? [];
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<Action>(null);
  if (!me) return null;

  const open = (kind: 'assign' | 'send' | 'edit' | 'delete') => (prompt: Prompt) =>
    setAction({ kind, prompt });
  const closeAction = (next: boolean) => !next && setAction(null);
  const rowProps = {
    onAssign: open('assign'),
    onSend: open('send'),
    onEdit: open('edit'),
    onDelete: open('delete'),
  };
  const empty = prompts && prompts.custom.length === 0 && prompts.defaults.length === 0;

  return (
    <Screen
      title="Ping Library"
      subtitle="Your prompts and the defaults, ready to assign and send."
      className="library"
      aside={
        <div className="library__aside">
          <Link to="/inbox" className="pings-section__link">
            Inbox
          </Link>
          <Button size="sm" onClick={() => setCreating(true)}>
            + New Prompt
          </Button>
        </div>
      }
    >
      {!prompts && (
        <p className="library__loading" role="status">
          <span className="spinner" aria-hidden="true" /> Loading your prompts…
        </p>
      )}
      {empty && (
        <section className="card card--muted library__empty" aria-labelledby="library-empty">
          <span className="library__empty-icon" aria-hidden="true">
            💭
          </span>
          <h2 id="library-empty">No prompts yet</h2>
          <p>Create your first prompt, or wait a moment while your library syncs.</p>
          <Button onClick={() => setCreating(true)}>Create New Ping Prompt</Button>
        </section>
      )}
      {prompts && (
        <>
          <PromptGroup
            id="library-custom"
            title="Your Prompts"
            prompts={prompts.custom}
            rowProps={rowProps}
          />
          <PromptGroup
            id="library-default"
            title="Default Prompts"
            prompts={prompts.defaults}
            rowProps={rowProps}
          />
        </>
      )}

      <CreatePromptDialog open={creating} meId={meId} onOpenChange={setCreating} />
      <CreatePromptDialog
        open={action?.kind === 'edit'}
        meId={meId}
        editing={action?.kind === 'edit' ? action.prompt : null}
        onOpenChange={closeAction}
      />
      <AssignPromptDialog
        prompt={action?.kind === 'assign' ? action.prompt : null}
        friends={friends}
        onOpenChange={closeAction}
      />
      <SendFromLibraryDialog
        prompt={action?.kind === 'send' ? action.prompt : null}
        me={me}
        friends={friends}
        onOpenChange={closeAction}
      />
      <DeletePromptDialog
        prompt={action?.kind === 'delete' ? action.prompt : null}
        onOpenChange={closeAction}
      />
    </Screen>
  );
}

/** One group of the library under its heading and count; nothing while it is empty. */
function PromptGroup({
  id,
  title,
  prompts,
  rowProps,
}: {
  id: string;
  title: string;
  prompts: readonly Prompt[];
  rowProps: Omit<PromptRowProps, 'prompt'>;
}) {
  if (prompts.length === 0) return null;
  return (
    <section className="library__group" aria-labelledby={id}>
      <h2 id={id} className="library__group-title">
        {title} <span className="library__count">{prompts.length}</span>
      </h2>
      <ul className="prompt-list">
        {prompts.map((p) => (
          <PromptRow key={p.id} prompt={p} {...rowProps} />
        ))}
      </ul>
    </section>
  );
}
