import { describe, expect, it } from 'vitest';
import { checkPhoto, maxPhotoBytes, PhotoError, photoToJpeg, scaledSize } from './photo';

const MB = 1024 * 1024;

describe('checkPhoto', () => {
  it('refuses a file that is not an image, whatever its size', () => {
    expect(checkPhoto({ type: 'application/pdf', size: 10 }, 'simple')).toEqual({
      title: 'Invalid file type',
      description: 'Please choose an image file (JPG, PNG, GIF).',
    });
    expect(checkPhoto({ type: '', size: 10 }, 'extended')?.title).toBe('Invalid file type');
  });

  it('accepts images up to 5 MB in the extended view and refuses one byte more', () => {
    expect(checkPhoto({ type: 'image/png', size: 5 * MB }, 'extended')).toBeNull();
    expect(checkPhoto({ type: 'image/png', size: 5 * MB + 1 }, 'extended')).toEqual({
      title: 'File too large',
      description: 'Please select an image smaller than 5MB',
    });
  });

  it('accepts images up to 25 MB in the simple view and refuses one byte more', () => {
    expect(checkPhoto({ type: 'image/jpeg', size: 6 * MB }, 'simple')).toBeNull();
    expect(checkPhoto({ type: 'image/gif', size: 25 * MB }, 'simple')).toBeNull();
    expect(checkPhoto({ type: 'image/gif', size: 25 * MB + 1 }, 'simple')?.description).toBe(
      'Please choose an image smaller than 25MB.',
    );
    expect(maxPhotoBytes('simple')).toBe(25 * MB);
  });
});

describe('scaledSize', () => {
  it('brings the longest side down to 800 px and keeps the aspect ratio', () => {
    expect(scaledSize(4000, 3000)).toEqual({ width: 800, height: 600 });
    expect(scaledSize(1200, 2400)).toEqual({ width: 400, height: 800 });
    expect(scaledSize(1000, 1000)).toEqual({ width: 800, height: 800 });
  });

  it('never enlarges a small image', () => {
    expect(scaledSize(640, 480)).toEqual({ width: 640, height: 480 });
    expect(scaledSize(800, 10)).toEqual({ width: 800, height: 10 });
  });

  it('rounds to whole pixels and keeps at least 1 px for very thin images', () => {
    expect(scaledSize(3333, 1111)).toEqual({ width: 800, height: 267 });
    expect(scaledSize(10000, 3)).toEqual({ width: 800, height: 1 });
    expect(scaledSize(0, 0)).toEqual({ width: 1, height: 1 });
  });
});

describe('photoToJpeg', () => {
  it('rejects a refused file with the rule’s toast before decoding anything', async () => {
    const pdf = new Blob(['%PDF'], { type: 'application/pdf' });
    const err = await photoToJpeg(pdf, 'simple').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PhotoError);
    expect(err).toMatchObject({ title: 'Invalid file type' });
  });
});
