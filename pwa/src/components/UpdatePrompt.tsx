import { useUi } from '../stores';
import { Button } from './Button';

/** Shown when a new service worker waits: the person chooses when to reload. */
export function UpdatePrompt() {
  const applyUpdate = useUi((s) => s.applyUpdate);
  const setApplyUpdate = useUi((s) => s.setApplyUpdate);
  if (!applyUpdate) return null;
  return (
    <div className="update-prompt" role="status">
      <span>A new version is available</span>
      <div className="update-prompt__actions">
        <Button size="sm" variant="ghost" onClick={() => setApplyUpdate(null)}>
          Later
        </Button>
        <Button size="sm" onClick={applyUpdate}>
          Reload
        </Button>
      </div>
    </div>
  );
}
