/**
 * Preferences of the Settings tab: Quiet Hours (no push in that window, anchor pings excepted)
 * and the Daily Ping Limit (how many pings each friend may send you in 24 h). Saved with
 * PUT /api/profile/update through the outbox; the server enforces both.
 */
import { LIMITS, ProfileUpdateBody, type SelfUser } from '@pingme/shared';
import { useState, type FormEvent } from 'react';
import { fieldErrors } from '../../hooks/useZodForm';
import { toast } from '../../stores';
import { Button } from '../Button';
import { TextField } from '../TextField';
import { useBusyWrite } from '../common/useBusyWrite';
import { clockValue } from './profile-rules';
import { saveProfile } from '../../writes/profile';

const Preferences = ProfileUpdateBody.pick({
  quietHoursStart: true,
  quietHoursEnd: true,
  rateLimitPerDay: true,
});

type Field = 'quietHoursStart' | 'quietHoursEnd' | 'rateLimitPerDay';

export function PreferencesForm({ me }: { me: SelfUser }) {
  const [values, setValues] = useState<Record<Field, string>>({
    quietHoursStart: clockValue(me.quietHoursStart),
    quietHoursEnd: clockValue(me.quietHoursEnd),
    rateLimitPerDay: String(me.rateLimitPerDay ?? LIMITS.dailyPingLimitDefault),
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const { busy, run } = useBusyWrite();
  const bind = (name: Field) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) =>
      setValues((v) => ({ ...v, [name]: e.target.value })),
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const limit = values.rateLimitPerDay.trim();
    const parsed = Preferences.safeParse({
      quietHoursStart: values.quietHoursStart,
      quietHoursEnd: values.quietHoursEnd,
      rateLimitPerDay: limit === '' ? undefined : Number(limit),
    });
    const found = parsed.success
      ? {}
      : (fieldErrors(parsed.error) as Partial<Record<Field, string>>);
    if (limit === '') found.rateLimitPerDay = 'Daily ping limit must be a number';
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) {
      const form = event.currentTarget;
      requestAnimationFrame(() =>
        form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    await run(
      async () => {
        await saveProfile(me, parsed.data);
        toast({ title: 'Profile updated successfully!', variant: 'success' });
      },
      { description: 'Failed to update profile. Please try again.' },
    );
  };

  return (
    <form className="form pf-preferences" onSubmit={(e) => void onSubmit(e)} noValidate>
      <fieldset className="pf-preferences__group">
        <legend className="pf-preferences__legend">Quiet Hours</legend>
        <p className="profile-muted">
          No notifications in this window (HH:MM). Anchor pings still get through.
        </p>
        <div className="form__pair">
          <TextField label="Start" type="time" {...bind('quietHoursStart')} />
          <TextField label="End" type="time" {...bind('quietHoursEnd')} />
        </div>
      </fieldset>
      <TextField
        label="Daily Ping Limit"
        type="number"
        inputMode="numeric"
        min={1}
        max={LIMITS.dailyPingLimitMax}
        step={1}
        hint="Maximum pings per person per day"
        {...bind('rateLimitPerDay')}
      />
      <Button type="submit" loading={busy}>
        Save Preferences
      </Button>
    </form>
  );
}
