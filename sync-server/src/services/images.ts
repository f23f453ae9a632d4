/**
 * Profile photos. The PWA uploads the file itself to PUT /api/profile/photo (read by
 * middleware/upload.ts within MAX_IMAGE_BYTES); the server decides the real type from the first
 * bytes (never from the declared type) and stores the file as `<uuid>.<ext>` in the uploads
 * directory, which middleware/static.ts serves at `/uploads/<file>`.
 *
 * Order of work around a database change (see routes/profile.ts): the file is written before
 * the transaction; if the transaction fails the new file is deleted; once it has committed the
 * person's previous file is deleted.
 */
import { randomUUID } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LIMITS } from '@pingme/shared';
import { badRequest } from '../errors';

export type ImageExt = 'jpg' | 'png' | 'gif' | 'webp';

export const IMAGE_CONTENT_TYPES: Record<ImageExt, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

export const MAX_IMAGE_BYTES = LIMITS.imageBytesExtended;
export const UPLOADS_URL_PREFIX = '/uploads/';

export const IMAGE_TOO_LARGE = 'File too large - Please select an image smaller than 5MB';
export const NOT_AN_IMAGE = 'Please choose an image file (JPG, PNG, GIF).';

/** The file names this module writes, and the only ones it will ever delete. */
const STORED_NAME = /^[0-9a-f-]{36}\.(jpg|png|gif|webp)$/;

const startsWith = (buf: Uint8Array, bytes: number[], at = 0) =>
  buf.length >= at + bytes.length && bytes.every((b, i) => buf[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The real image type from the magic bytes, or null when the bytes are not JPEG, PNG, GIF or WebP. */
export function detectImageType(buf: Uint8Array): ImageExt | null {
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(buf, ascii('GIF87a')) || startsWith(buf, ascii('GIF89a'))) return 'gif';
  if (startsWith(buf, ascii('RIFF')) && startsWith(buf, ascii('WEBP'), 8)) return 'webp';
  return null;
}

/** Checks uploaded bytes: 400 for anything that is not a JPEG, PNG, GIF or WebP. */
export function checkImageBytes(bytes: Buffer): { bytes: Buffer; ext: ImageExt } {
  const ext = detectImageType(bytes);
  if (!ext) throw badRequest(NOT_AN_IMAGE);
  return { bytes, ext };
}

export interface StoredImage {
  fileName: string;
  url: string;
  filePath: string;
}

/** Writes the bytes as a new `<uuid>.<ext>` file and answers its public URL. */
export async function storeImage(
  uploadsDir: string,
  image: { bytes: Buffer; ext: ImageExt },
): Promise<StoredImage> {
  const fileName = `${randomUUID()}.${image.ext}`;
  const filePath = path.join(uploadsDir, fileName);
  await writeFile(filePath, image.bytes, { flag: 'wx', mode: 0o644 });
  return { fileName, url: UPLOADS_URL_PREFIX + fileName, filePath };
}

/** Checks and stores uploaded bytes in one step. */
export async function saveImage(uploadsDir: string, bytes: Buffer): Promise<StoredImage> {
  return storeImage(uploadsDir, checkImageBytes(bytes));
}

/**
 * Deletes the stored file behind a profileImageUrl. Anything that is not one of our own
 * `/uploads/<uuid>.<ext>` URLs (an external avatar, null) is left alone; a missing file is fine.
 */
export async function deleteStoredImage(uploadsDir: string, url: string | null | undefined) {
  if (!url?.startsWith(UPLOADS_URL_PREFIX)) return;
  const name = url.slice(UPLOADS_URL_PREFIX.length);
  if (!STORED_NAME.test(name)) return;
  try {
    await unlink(path.join(uploadsDir, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      console.error('could not delete an old profile image', name, err);
    }
  }
}
