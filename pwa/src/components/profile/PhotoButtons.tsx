/**
 * Upload and remove buttons for the owner's photo. The file goes through the photo pipeline
 * (type and size rules of the view, 800 px, JPEG 0.8) and is uploaded directly with api.ts.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { PhotoError, photoToJpeg, type PhotoView } from '../../lib/photo';
import { toast } from '../../stores';
import { Button } from '../Button';
import { photoUploadError, removePhoto, sendPhoto } from '../../writes/profile';

export interface PhotoButtonsProps {
  view: PhotoView;
  hasPhoto: boolean;
  compact?: boolean;
}

export function PhotoButtons({ view, hasPhoto, compact = false }: PhotoButtonsProps) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setBusy('upload');
    try {
      await sendPhoto(await photoToJpeg(file, view));
      toast({ title: 'Profile Updated', description: 'Your new photo is on your profile.' });
    } catch (err) {
      if (err instanceof PhotoError) {
        toast({ title: err.title, description: err.description, variant: 'destructive' });
      } else {
        toast({
          title: 'Upload Failed',
          description: photoUploadError(err),
          variant: 'destructive',
        });
      }
    } finally {
      setBusy(null);
    }
  };

  const onRemove = async () => {
    setBusy('remove');
    try {
      await removePhoto();
      toast({ title: 'Profile Updated', description: 'Your photo was removed.' });
    } catch (err) {
      toast({ title: 'Upload Failed', description: photoUploadError(err), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="pf-photo-buttons">
      <input
        ref={input}
        type="file"
        accept="image/*"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => void onFile(e)}
        data-testid="photo-input"
      />
      <Button
        size="sm"
        variant="secondary"
        loading={busy === 'upload'}
        disabled={busy !== null}
        onClick={() => input.current?.click()}
      >
        {hasPhoto ? 'Change photo' : 'Upload photo'}
      </Button>
      {hasPhoto && !compact && (
        <Button
          size="sm"
          variant="ghost"
          loading={busy === 'remove'}
          disabled={busy !== null}
          onClick={() => void onRemove()}
        >
          Remove photo
        </Button>
      )}
    </div>
  );
}
