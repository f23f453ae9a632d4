/**
 * The Energy tab: 'Friendship Energy' with its explanation, the summary cards (energySummary),
 * 'Refresh Energy Metrics' (POST /api/energy/update-all) and the inner tabs Overview (friends
 * with score and level) and Details (the chosen friend's card). GET /api/energy/all is refreshed
 * every 30 s while the page is visible and kept in the Dexie cache for offline.
 */
import { EnergyEntry, POLL_MS, displayName, energySummary } from '@pingme/shared';
import { useState } from 'react';
import { z } from 'zod';
import { sendNow } from '../../writes/send-now';
import { toast } from '../../stores';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { Tabs } from '../Tabs';
import { EnergyBar, EnergyCard, LevelBadge } from './EnergyCard';
import { selectedEntry } from './energy-helpers';
import { FreshnessNote } from './FreshnessNote';
import { NoAnswerYet } from './NoAnswerYet';
import { useCachedAnswer } from './useCachedAnswer';

const EnergyList = z.array(EnergyEntry);

export function EnergyTab({ meId }: { meId: string }) {
  const answer = useCachedAnswer({
    cacheKey: `energy-all:${meId}`,
    path: '/api/energy/all',
    schema: EnergyList,
    pollMs: POLL_MS.energy,
  });
  const [updating, setUpdating] = useState(false);
  const [inner, setInner] = useState('overview');
  const [chosen, setChosen] = useState<string | null>(null);
  const entries = answer.data;
  const summary = energySummary(entries ?? []);

  const refresh = async () => {
    setUpdating(true);
    try {
      answer.replace(await sendNow('energy.refresh', {}));
    } catch {
      toast({
        title: 'Update Failed',
        description: 'Failed to update energy metrics',
        variant: 'destructive',
      });
    } finally {
      setUpdating(false);
    }
  };

  const chosenEntry = selectedEntry(entries, chosen);
  return (
    <div className="an-tab">
      <section className="card en-intro" aria-labelledby="en-title">
        <h2 id="en-title" className="card__title card__title--sm">
          Friendship Energy
        </h2>
        <p className="profile-muted">
          Energy shows how alive each friendship feels right now: how often you ping each other, how
          quickly you respond, whether you share moods, and your daily streaks.
        </p>
        <Button
          onClick={() => void refresh()}
          disabled={updating}
          aria-busy={updating || undefined}
        >
          {updating ? 'Updating...' : 'Refresh Energy Metrics'}
        </Button>
        <FreshnessNote
          computedAt={answer.computedAt}
          offline={answer.offline}
          failed={!!answer.error}
        />
      </section>

      {!entries ? (
        <NoAnswerYet
          status={answer.status}
          className="an-state"
          loading="Loading energy…"
          what="Energy"
        />
      ) : entries.length === 0 ? (
        <p className="card an-empty">No friends found. Add some friends to see energy metrics!</p>
      ) : (
        <>
          <ul className="an-cards" aria-label="Energy summary">
            <Summary label="Average Energy" value={`${summary.average}%`} />
            <Summary label="Total Friends" value={summary.total} />
            <Summary label="High Energy" value={summary.high} />
            <Summary label="Needs Boost" value={summary.needsBoost} />
          </ul>
          <Tabs
            label="Energy views"
            value={inner}
            onValueChange={setInner}
            items={[
              {
                value: 'overview',
                label: 'Overview',
                content: (
                  <ul className="en-list">
                    {entries.map((e) => (
                      <li key={e.friendId}>
                        <button
                          type="button"
                          className="en-row"
                          aria-pressed={e.friendId === chosen}
                          onClick={() => {
                            setChosen(e.friendId);
                            setInner('details');
                          }}
                        >
                          <Avatar user={e.friend} size="md" />
                          <span className="en-row__main">
                            <span className="en-row__name">{displayName(e.friend)}</span>
                            <EnergyBar entry={e} />
                          </span>
                          <span className="en-row__side">
                            <strong>{e.energyScore}%</strong>
                            <LevelBadge level={e.energyLevel} />
                          </span>
                        </button>
                      </li>
                    ))}
                  </ul>
                ),
              },
              {
                value: 'details',
                label: 'Details',
                content: chosenEntry ? (
                  <EnergyCard entry={chosenEntry} />
                ) : (
                  <p className="card an-empty">
                    Select a friend from the overview to see detailed energy metrics
                  </p>
                ),
              },
            ]}
          />
        </>
      )}
    </div>
  );
}

function Summary({ label, value }: { label: string; value: number | string }) {
  return (
    <li className="card an-card">
      <span className="an-card__label">{label}</span>
      <strong className="an-card__value">{value}</strong>
    </li>
  );
}
