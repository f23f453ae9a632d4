/** Test photos made with sharp: a phone photo with a GPS position, and a polyglot. */
import exif from 'exif-reader';
import sharp from 'sharp';

export const SCRIPT = '<script>alert(document.cookie)</script>';

/** A JPEG with a GPS position in its EXIF, as a phone camera writes it. */
export function phonePhoto(width = 1200, height = 900): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c2410c' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PingPhone', Model: 'X' },
      // libvips' IFD3 is the GPS directory.
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 21/1 0/1',
      },
    })
    .toBuffer();
}

/** The GPS directory of an image's EXIF, or undefined when it has none (or no EXIF at all). */
export async function gpsOf(image: Buffer): Promise<Record<string, unknown> | undefined> {
  const raw = (await sharp(image).metadata()).exif;
  return raw ? exif(raw).GPSInfo : undefined;
}

/** A valid image with a script appended after it: the magic bytes still say image. */
export function polyglot(image: Buffer): Buffer {
  return Buffer.concat([image, Buffer.from(SCRIPT)]);
}
