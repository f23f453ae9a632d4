import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import {
  NOT_AN_IMAGE,
  checkImageBytes,
  deleteStoredImage,
  detectImageType,
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

function thrown(fn: () => unknown): AppError {
  try {
    fn();
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

describe('checkImageBytes', () => {
  it('answers the real type of the bytes', () => {
    const { bytes, ext } = checkImageBytes(PNG_1PX);
    expect(ext).toBe('png');
    expect(bytes.equals(PNG_1PX)).toBe(true);
  });

  it('refuses text with the spec sentence', () => {
    const err = thrown(() => checkImageBytes(Buffer.from('just text')));
    expect(err.status).toBe(400);
    expect(err.message).toBe(NOT_AN_IMAGE);
  });
});

describe('storing and deleting', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-images-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes <uuid>.<real ext> and answers its /uploads/ URL', async () => {
    const stored = await saveImage(dir, PNG_1PX);
    expect(stored.fileName).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(stored.url).toBe(`/uploads/${stored.fileName}`);
    expect(readFileSync(path.join(dir, stored.fileName)).equals(PNG_1PX)).toBe(true);
    await deleteStoredImage(dir, stored.url);
    expect(existsSync(path.join(dir, stored.fileName))).toBe(false);
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
