/**
 * The profile photo pipeline (spec sections 5 and 9): check the file, downscale it so the longest
 * side is at most 800 px and re-encode it as JPEG quality 0.8, ready to upload as a file to
 * PUT /api/profile/photo (the server re-encodes it again to the sizes the app shows). The checks
 * and the scaling maths are pure; only `photoToJpeg` needs a browser (createImageBitmap and a
 * canvas).
 *
 *   try {
 *     const jpeg = await photoToJpeg(file, 'simple');
 *   } catch (err) {
 *     if (err instanceof PhotoError) toast({ title: err.title, description: err.description });
 *   }
 */
import { LIMITS } from '@pingme/shared';

/** Which profile view the photo is chosen in: they have different size limits. */
export type PhotoView = 'extended' | 'simple';

export interface PhotoProblem {
  title: string;
  description: string;
}

export class PhotoError extends Error implements PhotoProblem {
  override readonly name = 'PhotoError';
  constructor(
    readonly title: string,
    readonly description: string,
  ) {
    super(`${title}: ${description}`);
  }
}

export const PHOTO_MESSAGES = {
  invalidType: {
    title: 'Invalid file type',
    description: 'Please choose an image file (JPG, PNG, GIF).',
  },
  tooLargeExtended: {
    title: 'File too large',
    description: 'Please select an image smaller than 5MB',
  },
  tooLargeSimple: {
    title: 'File too large',
    description: 'Please choose an image smaller than 25MB.',
  },
  unreadable: {
    title: 'Invalid file type',
    description: 'That image could not be read. Please choose another JPG, PNG or GIF.',
  },
} as const satisfies Record<string, PhotoProblem>;

/** The largest file each view accepts, in bytes. */
export function maxPhotoBytes(view: PhotoView): number {
  return view === 'extended' ? LIMITS.imageBytesExtended : LIMITS.imageBytesSimple;
}

/** The first rule the file breaks (type, then size), or null when it may go on. */
export function checkPhoto(
  file: { type: string; size: number },
  view: PhotoView,
): PhotoProblem | null {
  if (!file.type.startsWith('image/')) return PHOTO_MESSAGES.invalidType;
  if (file.size > maxPhotoBytes(view)) {
    return view === 'extended' ? PHOTO_MESSAGES.tooLargeExtended : PHOTO_MESSAGES.tooLargeSimple;
  }
  return null;
}

/**
 * The size to draw at: the same aspect ratio, the longest side at most `maxSide`, never enlarged,
 * whole pixels and at least 1 px each way.
 */
export function scaledSize(
  width: number,
  height: number,
  maxSide: number = LIMITS.imageLongestSide,
): { width: number; height: number } {
  if (!(width > 0 && height > 0)) return { width: 1, height: 1 };
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

interface Drawable {
  width: number;
  height: number;
  source: CanvasImageSource;
  close(): void;
}

async function decode(file: Blob): Promise<Drawable> {
  if (typeof createImageBitmap === 'function') {
    const bitmap = await createImageBitmap(file);
    return {
      width: bitmap.width,
      height: bitmap.height,
      source: bitmap,
      close: () => bitmap.close(),
    };
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return { width: img.naturalWidth, height: img.naturalHeight, source: img, close: () => {} };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * Checks, downscales and re-encodes the file. Throws a PhotoError with the spec's toast when the
 * file breaks a rule or cannot be decoded as an image.
 */
export async function photoToJpeg(file: File | Blob, view: PhotoView): Promise<Blob> {
  const problem = checkPhoto(file, view);
  if (problem) throw new PhotoError(problem.title, problem.description);

  let image: Drawable;
  try {
    image = await decode(file);
  } catch {
    throw new PhotoError(PHOTO_MESSAGES.unreadable.title, PHOTO_MESSAGES.unreadable.description);
  }
  try {
    const { width, height } = scaledSize(image.width, image.height);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d canvas');
    // JPEG has no transparency: a transparent PNG would turn black without a backdrop.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(image.source, 0, 0, width, height);
    const jpeg = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/jpeg', LIMITS.imageJpegQuality),
    );
    if (!jpeg) throw new Error('the canvas could not be encoded');
    return jpeg;
  } finally {
    image.close();
  }
}
