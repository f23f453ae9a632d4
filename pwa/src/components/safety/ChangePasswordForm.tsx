/**
 * Change password (POST /api/change-password): straight through api.ts, since the person needs
 * the answer now. The shared schema's messages show beside the fields; the server's refusal
 * (wrong current password, no password yet) shows inline.
 */
import { ChangePasswordBody, ChangePasswordResponse } from '@pingme/shared';
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '../../api';
import { toast } from '../../stores';
import { Button } from '../Button';
import { CurrentPasswordField, NewPasswordField } from '../form/AccountFields';
import { fieldErrors } from '../../hooks/useZodForm';

type Errors = Partial<Record<'currentPassword' | 'newPassword' | 'form', string>>;

export function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = ChangePasswordBody.safeParse({ currentPassword: current, newPassword: next });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error) as Errors);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await api.post('/api/change-password', parsed.data, {
        schema: ChangePasswordResponse,
        on401: 'sign-in',
      });
      setCurrent('');
      setNext('');
      toast({ title: 'Password updated!', variant: 'success' });
    } catch (err) {
      setErrors({ form: errorMessage(err) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="sf-form"
      aria-labelledby="sf-password-title"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
    >
      <h4 id="sf-password-title" className="sf-subtitle">
        Change password
      </h4>
      <CurrentPasswordField
        label="Current password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        error={errors.currentPassword}
      />
      <NewPasswordField
        value={next}
        onChange={(e) => setNext(e.target.value)}
        error={errors.newPassword}
      />
      {errors.form && (
        <p className="field__error sf-form__error" role="alert">
          {errors.form}
        </p>
      )}
      <Button type="submit" variant="secondary" block loading={saving}>
        Update password
      </Button>
    </form>
  );
}
