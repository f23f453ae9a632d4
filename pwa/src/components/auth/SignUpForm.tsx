/**
 * The Sign Up tab of /auth: name, e-mail and password (POST /api/register), then home at once,
 * or back to the invite that sent the person here.
 */
import { AuthResponse, RegisterBody } from '@pingme/shared';
import { useNavigate } from '@tanstack/react-router';
import { api } from '../../api';
import { useZodForm } from '../../hooks/useZodForm';
import { takeReturnTo } from '../../navigation';
import { rememberUser } from '../../session';
import { toast } from '../../stores';
import { Button } from '../Button';
import { TextField } from '../TextField';
import { EmailField, NewPasswordField } from '../form/AccountFields';
import { useFormSubmit } from '../form/useFormSubmit';
import { GoogleButton, OrDivider } from './GoogleButton';

export function SignUpForm() {
  const navigate = useNavigate();
  const form = useZodForm(RegisterBody, { firstName: '', lastName: '', email: '', password: '' });

  const { busy, onSubmit } = useFormSubmit(form, 'Registration failed', async (body) => {
    const user = await api.post('/api/register', body, { schema: AuthResponse, on401: 'throw' });
    await rememberUser(user);
    toast({
      title: 'Welcome to PingMe!',
      description: 'Your account has been created successfully.',
      variant: 'success',
    });
    void navigate({ href: takeReturnTo(), replace: true });
  });

  return (
    <form ref={form.formRef} className="form" onSubmit={onSubmit} noValidate>
      <div className="form__pair">
        <TextField label="First name" autoComplete="given-name" {...form.field('firstName')} />
        <TextField label="Last name" autoComplete="family-name" {...form.field('lastName')} />
      </div>
      <EmailField {...form.field('email')} />
      <NewPasswordField label="Password" {...form.field('password')} />
      <Button type="submit" size="lg" block loading={busy}>
        Create account
      </Button>
      <OrDivider />
      <GoogleButton label="Sign up with Google" />
    </form>
  );
}
