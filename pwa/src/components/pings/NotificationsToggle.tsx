/**
 * 'Turn on notifications' / 'Turn off notifications' for this device (Web Push). Permission is
 * asked only when the person presses the button. Place it anywhere (Home, Settings).
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

export function NotificationsToggle() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);

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

  if (state === null) return null;
  return (
    <div className="notifications-toggle" data-testid="notifications-toggle">
      <p className="notifications-toggle__text">{EXPLAIN[state]}</p>
      {state === 'off' && (
        <Button variant="secondary" size="sm" loading={busy} onClick={() => void change(true)}>
          Turn on notifications
        </Button>
      )}
      {state === 'on' && (
        <Button variant="ghost" size="sm" loading={busy} onClick={() => void change(false)}>
          Turn off notifications
        </Button>
      )}
    </div>
  );
}
