import { GOOGLE_SIGN_IN_HREF } from '../../navigation';
import { buttonClass } from '../Button';
import { GoogleMark } from '../icons';

/** Third-party sign-in: a full-page navigation to the server's /api/auth/google. */
export function GoogleButton({ label }: { label: string }) {
  return (
    <a href={GOOGLE_SIGN_IN_HREF} className={buttonClass('secondary', 'lg', true)}>
      <GoogleMark />
      {label}
    </a>
  );
}

export function OrDivider() {
  return (
    <div className="or-divider" role="separator" aria-label="or">
      <span aria-hidden="true">or</span>
    </div>
  );
}
