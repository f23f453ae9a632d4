/**
 * What stands in for a cached answer (analytics, energy, admin metrics) while there is none to
 * show: a spinner during the first fetch, else that it could not be loaded (offline with nothing
 * cached, or the server refused).
 */
import { cx } from '../cx';
import type { AnswerStatus } from './useCachedAnswer';

export function NoAnswerYet({
  status,
  className,
  loading,
  what,
}: {
  status: AnswerStatus;
  className: string;
  /** The spinner's words, e.g. 'Loading energy…'. */
  loading: string;
  /** What could not be loaded, e.g. 'Energy'. */
  what: string;
}) {
  return (
    <div className={cx('card', className)} role="status">
      {status === 'loading' ? (
        <>
          <span className="spinner" aria-hidden="true" /> {loading}
        </>
      ) : (
        `${what} could not be loaded. Check your connection and try again.`
      )}
    </div>
  );
}
