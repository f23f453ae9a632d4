/** Setup step 3: where the person is, typed or picked from the popular locations. */
import { LIMITS, POPULAR_LOCATIONS } from '@pingme/shared';
import { useId } from 'react';
import { Button } from '../Button';
import { TextField } from '../TextField';

export interface LocationStepProps {
  location: string;
  onLocationChange(location: string): void;
}

export function LocationStep({ location, onLocationChange }: LocationStepProps) {
  const id = useId();
  return (
    <div className="setup-step">
      <TextField
        label="Location"
        value={location}
        onChange={(e) => onLocationChange(e.target.value.slice(0, LIMITS.location))}
        maxLength={LIMITS.location}
        autoComplete="address-level2"
        placeholder="City, Country"
        hint='Format: City, Country (for example "Lisbon, Portugal")'
      />
      <section aria-labelledby={`${id}-popular`}>
        <h3 id={`${id}-popular`} className="setup-subtitle">
          Popular locations
        </h3>
        <ul className="chip-list">
          {POPULAR_LOCATIONS.map((place) => (
            <li key={place}>
              <Button
                variant="secondary"
                size="sm"
                className="chip"
                aria-pressed={location === place}
                onClick={() => onLocationChange(place)}
              >
                {place}
              </Button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
