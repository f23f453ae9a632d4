import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { gpsOf, phonePhoto, polyglot, SCRIPT } from '../../test/photos';
import { AppError } from '../errors';
import {
  NOT_AN_IMAGE,
  UNREADABLE_IMAGE,
  deleteStoredImage,
  detectImageType,
  encodePhoto,
  reencodeStoredPhotos,
  saveImage,
} from './images';

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
const GIF87 = Buffer.from('GIF87a\x01\x00\x01\x00', 'latin1');
const GIF89 = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
]);
async function thrown(fn: () => Promise<unknown>): Promise<AppError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected an error');
}

describe('detectImageType', () => {
  it.each([
    ['png', PNG_1PX],
    ['jpg', JPEG],
    ['gif', GIF87],
    ['gif', GIF89],
    ['webp', WEBP],
  ])('recognises %s by its magic bytes', (ext, bytes) => {
    expect(detectImageType(bytes)).toBe(ext);
  });

  it.each([
    ['plain text', Buffer.from('hello, this is not an image')],
    ['an SVG document', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ['a PDF', Buffer.from('%PDF-1.7\n')],
    ['a RIFF that is not WebP (WAV)', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1')],
    ['a truncated PNG signature', PNG_1PX.subarray(0, 5)],
    ['a truncated JPEG signature', JPEG.subarray(0, 2)],
    ['GIF with an unknown version', Buffer.from('GIF90a', 'latin1')],
    ['nothing at all', Buffer.alloc(0)],
  ])('refuses %s', (_name, bytes) => {
    expect(detectImageType(bytes)).toBeNull();
  });
});

describe('encodePhoto', () => {
  it('re-encodes to square WebP at the two sizes the app shows, with no metadata', async () => {
    const input = await phonePhoto();
    expect(await gpsOf(input)).toMatchObject({ GPSLatitudeRef: 'N', GPSLatitude: [48, 51, 24] });
    const { large, small } = await encodePhoto(input);
    for (const [bytes, px] of [
      [large, 264],
      [small, 96],
    ] as const) {
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: px, height: px });
      expect(meta.exif).toBeUndefined();
      expect(await gpsOf(bytes)).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
    }
  });

  it('applies the EXIF orientation before dropping it', async () => {
    // A 40×20 image whose EXIF says "rotate 90°": shown 20×40, and its top half is red.
    const sideways = await sharp({
      create: { width: 40, height: 20, channels: 3, background: '#0000ff' },
    })
      .composite([
        {
          input: { create: { width: 20, height: 20, channels: 3, background: '#ff0000' } },
          left: 0,
          top: 0,
        },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { large } = await encodePhoto(sideways);
    const { data, info } = await sharp(large).raw().toBuffer({ resolveWithObject: true });
    // Upright it is red above blue (unrotated, red would be on the left, top and bottom alike).
    const pixel = (x: number, y: number) => {
      const i = (y * info.width + x) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    expect(pixel(10, 10)[0]).toBeGreaterThan(200);
    expect(pixel(10, 253)[2]).toBeGreaterThan(200);
    expect(pixel(10, 253)[0]).toBeLessThan(60);
  });

  it.each([
    ['a JPEG', async () => phonePhoto(300, 200)],
    ['a PNG', async () => sharp(PNG_1PX).png().toBuffer()],
    ['a GIF', async () => sharp(PNG_1PX).gif().toBuffer()],
  ])('drops a script appended after %s', async (_name, make) => {
    const bytes = polyglot(await make());
    expect(detectImageType(bytes)).not.toBeNull();
    const { large, small } = await encodePhoto(bytes);
    expect(large.includes(SCRIPT)).toBe(false);
    expect(small.includes('<script')).toBe(false);
  });

  it('refuses bytes that are not an image (400), and an image that cannot be decoded', async () => {
    const text = await thrown(() => encodePhoto(Buffer.from('just text')));
    expect(text.status).toBe(400);
    expect(text.message).toBe(NOT_AN_IMAGE);
    // Right magic bytes, no image behind them.
    const broken = await thrown(() => encodePhoto(JPEG));
    expect(broken.status).toBe(400);
    expect(broken.message).toBe(UNREADABLE_IMAGE);
  });
});

describe('storing and deleting', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-images-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes <uuid>.webp and its 96 px copy, answers its /uploads/ URL, and deletes both', async () => {
    const stored = await saveImage(dir, PNG_1PX);
    expect(stored.fileName).toMatch(/^[0-9a-f-]{36}\.webp$/);
    expect(stored.url).toBe(`/uploads/${stored.fileName}`);
    const small = stored.fileName.replace('.webp', '-96.webp');
    expect((await sharp(path.join(dir, stored.fileName)).metadata()).width).toBe(264);
    expect((await sharp(path.join(dir, small)).metadata()).width).toBe(96);
    await deleteStoredImage(dir, stored.url);
    expect(existsSync(path.join(dir, stored.fileName))).toBe(false);
    expect(existsSync(path.join(dir, small))).toBe(false);
    // A second delete of the same file is harmless.
    await deleteStoredImage(dir, stored.url);
  });

  it('never deletes anything but its own upload names', async () => {
    writeFileSync(path.join(dir, 'keep.png'), 'x');
    await deleteStoredImage(dir, '/uploads/keep.png');
    await deleteStoredImage(dir, '/uploads/../keep.png');
    await deleteStoredImage(dir, 'https://lh3.example.test/avatar.png');
    await deleteStoredImage(dir, null);
    expect(readdirSync(dir)).toContain('keep.png');
  });
});

describe('reencodeStoredPhotos (photos stored byte for byte before)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-legacy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('re-encodes each old photo in place without metadata or appended bytes, once', async () => {
    const id = '0190a000-0000-7000-8000-00000000aaaa';
    const notImage = '0190a000-0000-7000-8000-00000000bbbb';
    const done = await saveImage(dir, PNG_1PX);
    writeFileSync(path.join(dir, `${id}.jpg`), polyglot(await phonePhoto()));
    writeFileSync(path.join(dir, `${notImage}.png`), Buffer.from('not a picture at all'));

    const first = await reencodeStoredPhotos(dir);
    expect(first).toEqual({ reencoded: 1, setAside: 1 });
    const photo = readFileSync(path.join(dir, `${id}.jpg`));
    expect(photo.includes(SCRIPT)).toBe(false);
    const meta = await sharp(photo).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 264, height: 264 });
    expect(meta.exif).toBeUndefined();
    expect((await sharp(path.join(dir, `${id}-96.webp`)).metadata()).width).toBe(96);
    // The file that is no image is no longer under a name the server serves.
    expect(existsSync(path.join(dir, `${notImage}.png`))).toBe(false);
    expect(existsSync(path.join(dir, `${notImage}.png.unreadable`))).toBe(true);
    // New uploads are left alone, and a second start has nothing to do.
    expect(existsSync(path.join(dir, done.fileName))).toBe(true);
    expect(await reencodeStoredPhotos(dir)).toEqual({ reencoded: 0, setAside: 0 });
  });
});
