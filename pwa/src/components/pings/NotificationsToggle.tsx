/**
 * 'Turn on notifications' / 'Turn off notifications' for this device (Web Push). Permission is
 * asked only when the person presses the button. Settings shows it always; Home shows it as an
 * offer (`offer`) only while the browser would still ask (permission 'default'): never once the
 * person allowed or blocked notifications, and never again after 'Not now' on this device.
 */
import { useEffect, useState } from 'react';
import { toast } from '../../stores';
import {
  currentPushState,
  turnOffNotifications,
  turnOnNotifications,
  type PushState,
} from '../../sync/push-subscription';
import { Button } from '../Button';
import '../../styles/pings.css';

const EXPLAIN: Record<PushState, string> = {
  unsupported: 'This browser cannot show notifications from PingMe.',
  denied: 'Notifications are blocked for PingMe. Allow them in your browser’s site settings.',
  off: 'Get a notification when a friend pings you, even when PingMe is closed.',
  on: 'Notifications are on for this device.',
};

/** Set when the person answered Home's offer with 'Not now' (this device, this browser). */
const OFFER_DECLINED_KEY = 'pingme.notificationsOfferDeclined';

function offerDeclined(): boolean {
  try {
    return localStorage.getItem(OFFER_DECLINED_KEY) === '1';
  } catch {
    return false;
  }
}

/** Whether Home may offer notifications now: only a question the browser has not had answered. */
function mayOffer(state: PushState): boolean {
  return state === 'off' && Notification.permission === 'default' && !offerDeclined();
}

export function NotificationsToggle({ offer = false }: { offer?: boolean }) {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [declined, setDeclined] = useState(false);

  useEffect(() => {
    let live = true;
    currentPushState()
      .then((s) => live && setState(s))
      .catch(() => live && setState('unsupported'));
    return () => {
      live = false;
    };
  }, []);

  const change = async (on: boolean) => {
    setBusy(true);
    try {
      setState(await (on ? turnOnNotifications() : turnOffNotifications()));
    } catch (err) {
      console.warn('notifications change failed', err);
      toast({
        title: 'Error',
        description: on
          ? 'Could not turn on notifications. Please try again.'
          : 'Could not turn off notifications. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const decline = () => {
    try {
      localStorage.setItem(OFFER_DECLINED_KEY, '1');
    } catch {
      // Private mode without storage: hidden for this visit at least.
    }
    setDeclined(true);
  };

  if (state === null) return null;
  // Once turned on (or blocked) from Home's offer, the card goes: Settings has the switch.
  if (offer && (declined || !mayOffer(state))) return null;
  return (
    <div className="notifications-toggle" data-testid="notifications-toggle">
      <p className="notifications-toggle__text">{EXPLAIN[state]}</p>
      {state === 'off' && (
        <div className="notifications-toggle__actions">
          {offer && (
            <Button variant="ghost" size="sm" disabled={busy} onClick={decline}>
              Not now
            </Button>
          )}
          <Button variant="secondary" size="sm" loading={busy} onClick={() => void change(true)}>
            Turn on notifications
          </Button>
        </div>
      )}
      {state === 'on' && (
        <Button variant="ghost" size="sm" loading={busy} onClick={() => void change(false)}>
          Turn off notifications
        </Button>
      )}
    </div>
  );
}
