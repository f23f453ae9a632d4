/**
 * Packs tab: 'Your Ping Packs' from GET /api/profile/collections (title, description, install
 * count, tags) with Install (pack.install through the outbox; the pack's prompts arrive with the
 * next pull).
 */
import { Collection } from '@pingme/shared';
import { useState } from 'react';
import { z } from 'zod';
import { toast } from '../../stores';
import { installPack } from '../../writes/prompts';
import { useCachedAnswer } from '../analytics/useCachedAnswer';
import { Button } from '../Button';

const Collections = z.array(Collection);

export function PacksTab({ meId, title }: { meId: string; title: string }) {
  const packs = useCachedAnswer({
    cacheKey: `profile-collections:${meId}`,
    path: '/api/profile/collections',
    schema: Collections,
  });
  const [installing, setInstalling] = useState<Set<string>>(new Set());

  const install = async (pack: Collection) => {
    setInstalling((s) => new Set(s).add(pack.id));
    await installPack(pack.id, {
      description: 'Failed to install the ping pack. Please try again.',
    });
    if (packs.data) {
      packs.replace(
        packs.data.map((p) =>
          p.id === pack.id ? { ...p, installed: true, installCount: p.installCount + 1 } : p,
        ),
      );
    }
    toast({
      title: 'Pack installed',
      description: `The prompts of ${pack.title} are now in your library.`,
      variant: 'success',
    });
  };

  return (
    <section aria-labelledby="packs-title" className="pf-packs">
      <h3 id="packs-title" className="pf-packs__title">
        {title}
      </h3>
      {packs.data === undefined ? (
        <p className="profile-muted">
          {packs.status === 'error' ? 'Ping packs could not be loaded.' : 'Loading…'}
        </p>
      ) : packs.data.length === 0 ? (
        <p className="profile-muted">No ping packs yet.</p>
      ) : (
        <ul className="pf-pack-list">
          {packs.data.map((pack) => (
            <li key={pack.id} className="card pf-pack">
              <div className="pf-pack__head">
                <h4 className="pf-pack__title">{pack.title}</h4>
                <span className="pf-pack__count">
                  {pack.installCount} {pack.installCount === 1 ? 'install' : 'installs'}
                </span>
              </div>
              {pack.description && <p className="pf-pack__description">{pack.description}</p>}
              {pack.tags.length > 0 && (
                <ul className="pf-pack__tags" aria-label="Tags">
                  {pack.tags.map((t) => (
                    <li key={t}>#{t}</li>
                  ))}
                </ul>
              )}
              <Button
                size="sm"
                variant={pack.installed ? 'secondary' : 'primary'}
                disabled={pack.installed || installing.has(pack.id)}
                onClick={() => void install(pack)}
                aria-label={pack.installed ? `${pack.title} installed` : `Install ${pack.title}`}
              >
                {pack.installed ? 'Installed' : 'Install'}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
