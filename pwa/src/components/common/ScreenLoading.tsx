/** A screen while its rows load from the device: its title and a 'Loading…' status. */
import { Screen } from '../Screen';

export function ScreenLoading({ title }: { title: string }) {
  return (
    <Screen title={title}>
      <p className="fr-muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading…
      </p>
    </Screen>
  );
}
