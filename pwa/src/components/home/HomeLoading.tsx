/**
 * Home while a new device pulls its first snapshot (useAwaitingFirstSync), under Home's header: a
 * compact, polite status in place of the sections, so the first frame is not an empty Home
 * ('Connect with Friends', zero counters) that changes once the data lands. When a pull fails with
 * the server reachable (an error answer, an unreadable page), it says so: the sync host tries
 * again by itself, backing off, and 'Try again' asks now.
 */
import { useState } from 'react';
import { useRealtime } from '../../stores';
import { runSync } from '../../sync/engine';
import { Button } from '../Button';
import '../../styles/first-sync.css';

export function HomeLoading() {
  const failed = useRealtime((s) => s.pullFailed);
  const [trying, setTrying] = useState(false);
  const tryAgain = () => {
    setTrying(true);
    void runSync('timer').finally(() => setTrying(false));
  };
  return (
    <section className="home-loading card" aria-busy="true" aria-labelledby="home-loading-text">
      <span className="spinner home-loading__spinner" aria-hidden="true" />
      <p id="home-loading-text" className="home-loading__text" role="status" aria-live="polite">
        {failed ? 'Your pings could not be loaded yet. Trying again…' : 'Loading your pings…'}
      </p>
      {failed ? (
        <Button
          variant="secondary"
          size="sm"
          className="home-loading__retry"
          loading={trying}
          onClick={tryAgain}
        >
          Try again
        </Button>
      ) : (
        <>
          <span className="home-loading__bar" aria-hidden="true" />
          <span className="home-loading__bar home-loading__bar--short" aria-hidden="true" />
        </>
      )}
    </section>
  );
}
