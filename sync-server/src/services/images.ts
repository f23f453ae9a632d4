/**
 * Profile photos. The PWA uploads the file itself to PUT /api/profile/photo (read by
 * middleware/upload.ts within MAX_IMAGE_BYTES). The server accepts only bytes whose magic numbers
 * say JPEG, PNG, GIF or WebP (never the declared type), then re-encodes them with sharp: EXIF
 * orientation applied, the first frame only, cropped to its centre square (what the round avatar
 * shows anyway), at the two sizes the app shows (LIMITS.avatarPx and LIMITS.avatarSmallPx), as
 * WebP with no metadata at all (no EXIF, so no GPS position). What is stored and served is only what the encoder wrote: anything hidden in or
 * after the image (a script appended past valid magic bytes) never leaves the server.
 *
 * Files: `<uuid>.webp` (the photo's URL, `/uploads/<uuid>.webp`) and `<uuid>-96.webp` beside it
 * (shared `smallPhotoUrl`), in the uploads directory that middleware/static.ts serves.
 *
 * Order of work around a database change (see routes/profile.ts): the files are written before
 * the transaction; if the transaction fails they are deleted; once it has committed the person's
 * previous files are deleted.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LIMITS, smallPhotoUrl } from '@pingme/shared';
import sharp from 'sharp';
import { badRequest } from '../errors';
import { logger } from '../logger';

export type ImageExt = 'jpg' | 'png' | 'gif' | 'webp';

export const IMAGE_CONTENT_TYPES: Record<ImageExt, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

export const MAX_IMAGE_BYTES = LIMITS.imageBytesExtended;
/**
 * The most pixels a photo may have (a decompression bomb of a few KB can claim billions): a
 * 48-megapixel phone photo fits; the PWA sends at most 800 × 800.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const UPLOADS_URL_PREFIX = '/uploads/';

export const IMAGE_TOO_LARGE = 'File too large - Please select an image smaller than 5MB';
export const NOT_AN_IMAGE = 'Please choose an image file (JPG, PNG, GIF).';
export const UNREADABLE_IMAGE =
  'That image could not be read. Please choose another JPG, PNG or GIF.';

/** The photo file names this module writes, and the only ones it will ever delete. */
const STORED_NAME = /^[0-9a-f-]{36}\.(jpg|png|gif|webp)$/;

// Each photo is encoded once: libvips' operation cache would only hold memory.
sharp.cache(false);

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

export interface EncodedPhoto {
  /** LIMITS.avatarPx square, WebP. */
  large: Buffer;
  /** LIMITS.avatarSmallPx square, WebP. */
  small: Buffer;
}

/** One square copy of the photo, `px` wide, in `format`, with no metadata. */
function square(bytes: Buffer, px: number, format: 'webp' | 'jpeg' | 'png' | 'gif') {
  // sharp writes no EXIF, XMP or ICC data unless asked (withMetadata/keepExif): none is asked.
  return sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, pages: 1 })
    .rotate()
    .resize(px, px, { fit: 'cover', position: 'centre' })
    .toFormat(format, format === 'webp' || format === 'jpeg' ? { quality: 82 } : {})
    .toBuffer();
}

/**
 * Checks and re-encodes uploaded bytes: 400 NOT_AN_IMAGE for anything that is not a JPEG, PNG,
 * GIF or WebP by its magic numbers, 400 UNREADABLE_IMAGE when the image itself cannot be decoded
 * (truncated, corrupt, over MAX_IMAGE_PIXELS).
 */
export async function encodePhoto(bytes: Buffer): Promise<EncodedPhoto> {
  if (!detectImageType(bytes)) throw badRequest(NOT_AN_IMAGE);
  try {
    const [large, small] = await Promise.all([
      square(bytes, LIMITS.avatarPx, 'webp'),
      square(bytes, LIMITS.avatarSmallPx, 'webp'),
    ]);
    return { large, small };
  } catch {
    throw badRequest(UNREADABLE_IMAGE);
  }
}

export interface StoredImage {
  fileName: string;
  url: string;
  filePath: string;
}

/** Writes both copies as new files and answers the photo's public URL. */
export async function storePhoto(uploadsDir: string, photo: EncodedPhoto): Promise<StoredImage> {
  const fileName = `${randomUUID()}.webp`;
  const url = UPLOADS_URL_PREFIX + fileName;
  const filePath = path.join(uploadsDir, fileName);
  const smallPath = path.join(uploadsDir, path.basename(smallPhotoUrl(url)!));
  await writeFile(smallPath, photo.small, { flag: 'wx', mode: 0o644 });
  await writeFile(filePath, photo.large, { flag: 'wx', mode: 0o644 });
  return { fileName, url, filePath };
}

/** Checks, re-encodes and stores uploaded bytes in one step. */
export async function saveImage(uploadsDir: string, bytes: Buffer): Promise<StoredImage> {
  return storePhoto(uploadsDir, await encodePhoto(bytes));
}

async function unlinkQuietly(file: string) {
  try {
    await unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      logger.error({ err, name: path.basename(file) }, 'could not delete an old profile image');
    }
  }
}

/**
 * Deletes the stored files behind a profileImageUrl (the photo and its small copy). Anything that
 * is not one of our own `/uploads/<uuid>.<ext>` URLs (an external avatar, null) is left alone; a
 * missing file is fine.
 */
export async function deleteStoredImage(uploadsDir: string, url: string | null | undefined) {
  if (!url?.startsWith(UPLOADS_URL_PREFIX)) return;
  const name = url.slice(UPLOADS_URL_PREFIX.length);
  if (!STORED_NAME.test(name)) return;
  await unlinkQuietly(path.join(uploadsDir, name));
  await unlinkQuietly(path.join(uploadsDir, path.basename(smallPhotoUrl(url)!)));
}

/**
 * Photos stored before uploads were re-encoded were kept byte for byte (EXIF and anything
 * appended included). Each such `<uuid>.<ext>` (one without its small copy) is re-encoded in
 * place, at the stored sizes and in its own format, so its URL and every device's copy of it stay
 * valid; a file that cannot be decoded is renamed out of what the server serves
 * (`<name>.unreadable`). Runs at every start; a photo already done is skipped by its small copy.
 * Answers how many files were re-encoded and set aside.
 */
export async function reencodeStoredPhotos(
  uploadsDir: string,
): Promise<{ reencoded: number; setAside: number }> {
  const names = new Set(await readdir(uploadsDir));
  const done = { reencoded: 0, setAside: 0 };
  for (const name of names) {
    if (!STORED_NAME.test(name)) continue;
    const url = UPLOADS_URL_PREFIX + name;
    const small = path.basename(smallPhotoUrl(url)!);
    if (names.has(small)) continue;
    const file = path.join(uploadsDir, name);
    const ext = path.extname(name).slice(1) as ImageExt;
    try {
      const bytes = await readFile(file);
      if (detectImageType(bytes) !== ext) throw new Error('not the image its name says');
      const format = ext === 'jpg' ? 'jpeg' : ext;
      const [large, smallCopy] = await Promise.all([
        square(bytes, LIMITS.avatarPx, format),
        square(bytes, LIMITS.avatarSmallPx, 'webp'),
      ]);
      await writeFile(`${file}.new`, large, { mode: 0o644 });
      await rename(`${file}.new`, file);
      await writeFile(path.join(uploadsDir, small), smallCopy, { mode: 0o644 });
      done.reencoded += 1;
    } catch (err) {
      logger.warn({ err, name }, 'a stored photo could not be re-encoded; it is no longer served');
      await rename(file, `${file}.unreadable`).catch(() => undefined);
      done.setAside += 1;
    }
  }
  return done;
}
