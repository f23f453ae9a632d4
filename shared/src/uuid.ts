/**
 * UUIDv7 (RFC 9562, section 5.7): 48-bit Unix milliseconds, version 7, a 12-bit counter in rand_a
 * (method 1 of section 6.2, seeded randomly each millisecond), variant 10, 62 random bits.
 * Ids made by one process sort strictly in the order they were made, even within a millisecond.
 */
interface RandomSource {
  getRandomValues<T extends Uint8Array>(array: T): T;
}
const random = (globalThis as unknown as { crypto: RandomSource }).crypto;

let lastMs = -1;
let seq = 0;

/** Random bytes are drawn 4 KB at a time: one call to the system per 256 ids, not one each. */
const POOL_SIZE = 4096;
let pool = new Uint8Array(0);
let poolAt = POOL_SIZE;

function randomBytes16(): Uint8Array {
  if (poolAt + 16 > pool.length) {
    pool = random.getRandomValues(new Uint8Array(POOL_SIZE));
    poolAt = 0;
  }
  const bytes = pool.slice(poolAt, poolAt + 16);
  poolAt += 16;
  return bytes;
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * A new UUIDv7. Without `at` it reads the clock and keeps this process's ids strictly increasing;
 * with `at` (ms since the epoch, for backdated records) it encodes that instant and makes no
 * ordering promise within the millisecond.
 */
export function uuidv7(at?: number): string {
  const bytes = randomBytes16();
  const fresh = ((bytes[6]! & 0x07) << 8) | bytes[7]!; // leaves at least 2048 steps per ms
  let ms: number;
  let counter = fresh;
  if (at !== undefined) ms = Math.max(0, Math.floor(at));
  else {
    ms = Date.now();
    if (ms > lastMs) [lastMs, seq] = [ms, fresh];
    else {
      // Same millisecond, or the clock stepped back: continue the sequence of the last one.
      seq += 1;
      if (seq > 0xfff) [lastMs, seq] = [lastMs + 1, fresh];
      ms = lastMs;
    }
    counter = seq;
  }
  for (let i = 5; i >= 0; i--, ms = Math.floor(ms / 256)) bytes[i] = ms % 256;
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  let hex = '';
  for (const b of bytes) hex += HEX[b];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The millisecond timestamp a UUIDv7 carries. */
export function uuidv7Time(id: string): number {
  return parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}
