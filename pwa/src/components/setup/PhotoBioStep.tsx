/**
 * Setup step 2: a profile photo (downscaled to 800 px JPEG by lib/photo.ts, shown from memory
 * and uploaded when the setup completes) and a bio.
 */
import { LIMITS, type SelfUser } from '@pingme/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { PhotoError, photoToJpeg } from '../../lib/photo';
import { toast } from '../../stores';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { CountedTextArea } from '../common/CountedTextArea';
import '../../styles/setup.css';

export interface PhotoBioStepProps {
  user: SelfUser;
  photo: Blob | null;
  onPhotoChange(photo: Blob | null): void;
  bio: string;
  onBioChange(bio: string): void;
}

export function PhotoBioStep({ user, photo, onPhotoChange, bio, onBioChange }: PhotoBioStepProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [working, setWorking] = useState(false);
  const preview = usePreviewUrl(photo);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setWorking(true);
    try {
      onPhotoChange(await photoToJpeg(file, 'extended'));
    } catch (err) {
      if (err instanceof PhotoError)
        toast({ title: err.title, description: err.description, variant: 'destructive' });
      else
        toast({
          title: 'Invalid file type',
          description: 'That image could not be read. Please choose another JPG, PNG or GIF.',
          variant: 'destructive',
        });
    } finally {
      setWorking(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="setup-step">
      <div className="photo-picker">
        <Avatar user={{ ...user, profileImageUrl: preview ?? user.profileImageUrl }} size="xl" />
        <div className="photo-picker__actions">
          <input
            ref={input}
            id={inputId}
            type="file"
            accept="image/*"
            aria-label="Profile photo"
            className="visually-hidden"
            tabIndex={-1}
            onChange={(e) => void choose(e.target.files?.[0])}
          />
          <Button
            variant="secondary"
            size="sm"
            loading={working}
            onClick={() => input.current?.click()}
          >
            {photo ? 'Change photo' : 'Upload photo'}
          </Button>
          {photo && (
            <Button variant="ghost" size="sm" onClick={() => onPhotoChange(null)}>
              Remove
            </Button>
          )}
          <p className="field__hint">JPG, PNG or GIF up to 5 MB. We shrink it for you.</p>
        </div>
      </div>
      <CountedTextArea
        label="Bio"
        value={bio}
        onChange={onBioChange}
        maxLength={LIMITS.bio}
        look="tall"
        placeholder="A line or two about you"
      />
    </div>
  );
}

/** An object URL for the chosen photo while it is shown (CSP allows blob: images). */
function usePreviewUrl(photo: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!photo) {
      setUrl(null);
      return;
    }
    const made = URL.createObjectURL(photo);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [photo]);
  return url;
}
