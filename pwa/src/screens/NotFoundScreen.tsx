import { Link } from '@tanstack/react-router';
import { buttonClass } from '../components/Button';
import { StatusCard } from '../components/StatusCard';
import { CompassIcon } from '../components/icons';

/** Any path the router does not know (spec section 2). */
export function NotFoundScreen() {
  return (
    <StatusCard
      tone="warning"
      icon={<CompassIcon />}
      title="404 Page Not Found"
      actions={
        <Link to="/" className={buttonClass('primary')}>
          Go Home
        </Link>
      }
    >
      <p>Did you forget to add the page to the router?</p>
    </StatusCard>
  );
}
