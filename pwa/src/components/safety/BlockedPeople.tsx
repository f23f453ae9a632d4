/** The people the owner blocked (GET /api/blocks), each with 'Unblock' (block.delete). */
import { BlockedPerson, displayName } from '@pingme/shared';
import { z } from 'zod';
import { api } from '../../api';
import { useApiData } from '../../hooks/useApiData';
import { useRowAction } from '../../hooks/useRowAction';
import { toast } from '../../stores';
import { unblockPerson } from '../../writes/safety';
import { Avatar } from '../Avatar';
import { Button } from '../Button';

const loadBlocked = () => api.get('/api/blocks', { schema: z.array(BlockedPerson) });

export function BlockedPeople() {
  const { state, reload: load } = useApiData(loadBlocked);
  const { busy, run } = useRowAction();

  const unblock = (p: BlockedPerson) =>
    run(p.userId, async () => {
      await unblockPerson(p.userId);
      toast({ title: `${displayName(p.user)} is unblocked`, variant: 'success' });
      await load();
    });

  let body;
  if (state.kind === 'loading') {
    body = (
      <p className="sf-muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading…
      </p>
    );
  } else if (state.kind === 'error') {
    body = (
      <div className="sf-muted" role="alert">
        <p>Could not load the people you blocked. {state.message}</p>
        <Button size="sm" variant="secondary" onClick={() => void load()}>
          Try again
        </Button>
      </div>
    );
  } else if (state.data.length === 0) {
    body = <p className="sf-muted">You have not blocked anyone.</p>;
  } else {
    body = (
      <ul className="sf-blocked" aria-label="Blocked people">
        {state.data.map((p) => (
          <li key={p.userId} className="sf-blocked__row">
            <Avatar user={p.user} size="sm" />
            <span className="sf-blocked__name">{displayName(p.user)}</span>
            <Button
              size="sm"
              variant="secondary"
              loading={busy === p.userId}
              aria-label={`Unblock ${displayName(p.user)}`}
              onClick={() => void unblock(p)}
            >
              Unblock
            </Button>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="sf-block" aria-labelledby="sf-blocked-title" role="group">
      <h4 id="sf-blocked-title" className="sf-subtitle">
        Blocked people
      </h4>
      {body}
    </div>
  );
}
