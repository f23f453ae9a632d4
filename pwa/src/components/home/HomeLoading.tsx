/**
 * Home while a new device pulls its first snapshot (useAwaitingFirstSync): a compact, polite
 * status in place of the sections, so the first frame is not an empty Home ('Connect with
 * Friends', zero counters) that moves once the data lands.
 */
import '../../styles/first-sync.css';

export function HomeLoading() {
  return (
    <section className="home-loading card" aria-busy="true" aria-labelledby="home-loading-text">
      <span className="spinner home-loading__spinner" aria-hidden="true" />
      <p id="home-loading-text" className="home-loading__text" role="status" aria-live="polite">
        Loading your pings…
      </p>
      <span className="home-loading__bar" aria-hidden="true" />
      <span className="home-loading__bar home-loading__bar--short" aria-hidden="true" />
    </section>
  );
}
