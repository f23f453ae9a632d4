/**
 * Edit mode of the owner's profile: handle, status, bio, location and personal link, validated
 * by the shared ProfileUpdateBody (the server's own messages) and saved through the outbox.
 */
import {
  Handle,
  LIMITS,
  ProfileUpdateBody,
  UsernameCheckResponse,
  normalizeUsername,
  type SelfUser,
} from '@pingme/shared';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { api } from '../../api';
import { useZodForm } from '../../hooks/useZodForm';
import { toast } from '../../stores';
import { Dialog, DialogActions } from '../Dialog';
import { TextField } from '../TextField';
import { saveProfile } from '../../writes/profile';

export interface ProfileEditDialogProps {
  me: SelfUser;
  open: boolean;
  onOpenChange(open: boolean): void;
}

export function ProfileEditDialog({ me, open, onOpenChange }: ProfileEditDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Edit Profile"
      description="What your friends see on your profile."
    >
      {open && <ProfileEditForm me={me} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

type Field = 'handle' | 'status' | 'bio' | 'location' | 'personalLink';

/** Only what changed is sent; an empty handle is left out (a handle cannot be cleared). */
const EditBody = ProfileUpdateBody.pick({
  handle: true,
  status: true,
  bio: true,
  location: true,
  personalLink: true,
});

/** The form may keep the handle empty (never set); otherwise the shared rule applies. */
const EditForm = EditBody.extend({
  handle: z.string().superRefine((s, ctx) => {
    if (s === '') return;
    const result = Handle.safeParse(s);
    if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]!.message });
  }),
});

/** False only when the server says another person has the handle; offline it is not checked. */
async function handleIsFree(handle: string): Promise<boolean> {
  try {
    const answer = await api.get(`/api/username/check/${encodeURIComponent(handle)}`, {
      schema: UsernameCheckResponse,
    });
    return answer.available;
  } catch {
    return true;
  }
}

function ProfileEditForm({ me, onDone }: { me: SelfUser; onDone(): void }) {
  const initial: Record<Field, string> = {
    handle: me.handle ?? '',
    status: me.status ?? '',
    bio: me.bio ?? '',
    location: me.location ?? '',
    personalLink: me.personalLink ?? '',
  };
  const form = useZodForm(EditForm, initial);
  const [taken, setTaken] = useState(false);
  const [busy, setBusy] = useState(false);
  const handleField = form.field('handle');
  /** A field whose hint counts its characters against the limit. */
  const counted = (name: Field, max: number) => ({
    ...form.field(name),
    hint: `${[...form.values[name]].length}/${max}`,
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const values = { ...form.values, handle: normalizeUsername(form.values.handle) };
    const changed = Object.fromEntries(
      (Object.keys(values) as Field[])
        .filter((k) => values[k].trim() !== initial[k].trim())
        .filter((k) => k !== 'handle' || values.handle !== '')
        .map((k) => [k, values[k]]),
    );
    if (!form.validate()) return;
    if (Object.keys(changed).length === 0) {
      onDone();
      return;
    }
    const parsed = EditBody.safeParse(changed);
    if (!parsed.success) return;
    setBusy(true);
    if (parsed.data.handle && !(await handleIsFree(parsed.data.handle))) {
      setBusy(false);
      setTaken(true);
      form.formRef.current?.querySelector<HTMLInputElement>('input[name="handle"]')?.focus();
      return;
    }
    try {
      await saveProfile(me, parsed.data);
      toast({ title: 'Profile updated successfully!', variant: 'success' });
      onDone();
    } catch {
      setBusy(false);
      toast({
        title: 'Error',
        description: 'Failed to update profile. Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <form ref={form.formRef} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        hint="3-30 characters: a-z, 0-9 and _"
        {...handleField}
        onChange={(e) => {
          e.target.value = normalizeUsername(e.target.value);
          setTaken(false);
          handleField.onChange(e);
        }}
        error={taken ? 'Username not available' : handleField.error}
      />
      <TextField
        label="Status"
        placeholder="What are you up to?"
        {...counted('status', LIMITS.status)}
      />
      <TextField label="Mini bio (1-2 lines)" {...counted('bio', LIMITS.bio)} />
      <TextField
        label="Location"
        autoComplete="address-level2"
        {...counted('location', LIMITS.location)}
      />
      <TextField
        label="Personal link"
        type="url"
        inputMode="url"
        placeholder="https://"
        {...form.field('personalLink')}
      />
      <DialogActions type="submit" loading={busy}>
        Save Profile
      </DialogActions>
    </form>
  );
}
