import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PHOTO_REMOVAL_ONLY, isValidUsername, smallPhotoUrl } from '@pingme/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { gpsOf, phonePhoto, polyglot, SCRIPT } from '../../test/photos';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** PUT /api/profile/photo with the file itself as the body. */
function uploadPhoto(
  u: MadeUser,
  bytes: Buffer,
  type = 'image/png',
  headers: Record<string, string> = {},
) {
  return u.client.request('PUT', '/api/profile/photo', undefined, {
    raw: bytes,
    headers: { 'content-type': type, ...headers },
  });
}
const NOT_AN_IMAGE = 'Please choose an image file (JPG, PNG, GIF).';
const HANDLE_RULE = 'Usernames are 3-30 characters of a-z, 0-9 and _';

let seq = 0;
/** A handle nobody in this file has used yet. */
const freshHandle = (stem = 'h') => `${stem}${Date.now().toString(36)}${++seq}`;

const uploads = () => readdirSync(server.config.uploadsDir).sort();

/** The 'user' rows about entityId written after `since` (each person's number then). */
async function userChanges(entityId: string, since: Map<string, number>) {
  const rows = await server.database.db
    .selectFrom('changes')
    .select(['userId', 'entity', 'entityId', 'op', 'seq'])
    .where('entity', '=', 'user')
    .where('entityId', '=', entityId)
    .execute();
  return rows.filter((r) => r.seq > (since.get(r.userId) ?? 0)).map(({ seq: _seq, ...r }) => r);
}
/** Every person's newest change number now. */
async function maxSeq() {
  const rows = await server.database.db
    .selectFrom('changeCounters')
    .select(['userId', 'seq'])
    .execute();
  return new Map(rows.map((r) => [r.userId, r.seq]));
}

describe('GET /api/username/check/{handle}', () => {
  it('is 401 when signed out', async () => {
    const res = await server.client().get('/api/username/check/anything');
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });

  it('answers a free handle as available, normalised, without suggestions', async () => {
    const a = await makeUser(server);
    const wanted = freshHandle('Free.Name-');
    const res = await a.client.get(`/api/username/check/${encodeURIComponent(wanted)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      available: true,
      handle: wanted.toLowerCase().replace(/[^a-z0-9_]/g, ''),
      suggestions: [],
    });
  });

  it('answers a taken handle as unavailable with 6 free, valid alternatives', async () => {
    const owner = await makeUser(server);
    const handle = freshHandle('taken');
    expect((await owner.client.put('/api/profile/update', { handle })).status).toBe(200);
    const a = await makeUser(server);
    const res = await a.client.get(`/api/username/check/${handle.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.available).toBe(false);
    expect(res.body.handle).toBe(handle);
    const s: string[] = res.body.suggestions;
    expect(s).toHaveLength(6);
    expect(new Set(s).size).toBe(6);
    for (const alt of s) {
      expect(isValidUsername(alt)).toBe(true);
      expect(alt.startsWith(handle)).toBe(true);
      expect(alt).not.toBe(handle);
    }
    // Each one really is free.
    const holders = await server.database.db
      .selectFrom('users')
      .select('handle')
      .where('handle', 'in', s)
      .execute();
    expect(holders).toEqual([]);
    for (const alt of s.slice(0, 2)) {
      expect((await a.client.get(`/api/username/check/${alt}`)).body.available).toBe(true);
    }
  });

  it('suggests alternatives that fit in 30 characters for a 30-character handle', async () => {
    const owner = await makeUser(server);
    const handle = freshHandle('x').padEnd(30, 'y');
    expect((await owner.client.put('/api/profile/update', { handle })).status).toBe(200);
    const a = await makeUser(server);
    const res = await a.client.get(`/api/username/check/${handle}`);
    expect(res.body.available).toBe(false);
    expect(res.body.suggestions).toHaveLength(6);
    for (const alt of res.body.suggestions) expect(isValidUsername(alt)).toBe(true);
  });

  it("counts the person's own current handle as available", async () => {
    const a = await makeUser(server);
    const handle = freshHandle('mine');
    await a.client.put('/api/profile/update', { handle });
    const res = await a.client.get(`/api/username/check/${handle}`);
    expect(res.body).toMatchObject({ available: true, handle });
    const other = await makeUser(server);
    expect((await other.client.get(`/api/username/check/${handle}`)).body.available).toBe(false);
  });

  it.each(['ab', 'a!b', '%21%21%21'])(
    'answers %j (under 3 characters once normalised) as unavailable',
    async (h) => {
      const a = await makeUser(server);
      const res = await a.client.get(`/api/username/check/${h}`);
      expect(res.status).toBe(200);
      expect(res.body.available).toBe(false);
      expect(res.body.handle.length).toBeLessThan(3);
      for (const alt of res.body.suggestions) expect(isValidUsername(alt)).toBe(true);
    },
  );

  it('refuses an absurdly long handle with a sentence, not a 500', async () => {
    const a = await makeUser(server);
    const res = await a.client.get(`/api/username/check/${'a'.repeat(201)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Usernames are at most 30 characters');
  });

  it('survives a malformed percent-encoding', async () => {
    const a = await makeUser(server);
    const res = await a.client.get('/api/username/check/%E0%A4%A');
    expect(res.status).toBeLessThan(500);
  });
});

describe('POST /api/user/complete-onboarding', () => {
  it('sets handle, bio, location and completes setup', async () => {
    const a = await makeUser(server);
    expect(a.user.onboardingCompleted).toBe(false);
    const handle = freshHandle('setup');
    const res = await a.client.post('/api/user/complete-onboarding', {
      handle,
      bio: '  Tea and long walks  ',
      location: 'Berlin',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: a.id,
      handle,
      bio: 'Tea and long walks',
      location: 'Berlin',
      onboardingCompleted: true,
      profileImageUrl: null,
    });
    const me = await a.client.get('/api/user');
    expect(me.body).toMatchObject({ handle, onboardingCompleted: true });
  });

  it('takes no photo inside JSON: a data URL is refused, the photo has its own route', async () => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/user/complete-onboarding', {
      handle: freshHandle('photo'),
      profileImageUrl: dataUrl('image/png', PNG),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(PHOTO_REMOVAL_ONLY);
    expect((await a.client.get('/api/user')).body.onboardingCompleted).toBe(false);
  });

  it("answers 409 'Username not available' for someone else's handle and changes nothing", async () => {
    const owner = await makeUser(server);
    const handle = freshHandle('dup');
    await owner.client.post('/api/user/complete-onboarding', { handle });
    const a = await makeUser(server);
    const res = await a.client.post('/api/user/complete-onboarding', { handle, bio: 'x' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Username not available', code: 'handle_taken' });
    const me = await a.client.get('/api/user');
    expect(me.body).toMatchObject({ handle: null, bio: null, onboardingCompleted: false });
  });

  it.each([
    [{}, HANDLE_RULE],
    [{ handle: 'Ab' }, HANDLE_RULE],
    [{ handle: 'Has Space' }, HANDLE_RULE],
    [{ handle: 42 }, HANDLE_RULE],
    [{ handle: 'okhandle', bio: 'b'.repeat(151) }, 'Bio must be at most 150 characters'],
    [{ handle: 'okhandle', location: 'l'.repeat(101) }, 'Location must be at most 100 characters'],
    [{ handle: 'okhandle', location: ['Berlin'] }, 'Location must be text'],
    [{ handle: 'okhandle', profileImageUrl: 'https://x.test/a.png' }, PHOTO_REMOVAL_ONLY],
    [{ handle: 'okhandle', isAdmin: true }, 'Unknown field: isAdmin'],
  ])('refuses %j with "%s"', async (body, message) => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/user/complete-onboarding', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect((await a.client.get('/api/user')).body.onboardingCompleted).toBe(false);
  });

  it('is 401 when signed out', async () => {
    const res = await server.client().post('/api/user/complete-onboarding', { handle: 'abc' });
    expect(res.status).toBe(401);
  });
});

describe('PATCH /api/user/onboarding', () => {
  it('saves the tour step, then completion, which is one-way', async () => {
    const a = await makeUser(server);
    const step = await a.client.patch('/api/user/onboarding', { step: 2 });
    expect(step.status).toBe(200);
    expect(step.body).toMatchObject({ onboardingStep: 2, onboardingCompleted: false });
    const done = await a.client.patch('/api/user/onboarding', { step: 4, completed: true });
    expect(done.body).toMatchObject({ onboardingStep: 4, onboardingCompleted: true });
    const undo = await a.client.patch('/api/user/onboarding', { completed: false });
    expect(undo.status).toBe(200);
    expect(undo.body.onboardingCompleted).toBe(true);
    expect((await a.client.get('/api/user')).body).toMatchObject({
      onboardingStep: 4,
      onboardingCompleted: true,
    });
  });

  it.each([
    [{}, 'Send step or completed'],
    [{ step: 6 }, 'Tour step must be at most 5'],
    [{ step: -1 }, 'Tour step must be at least 0'],
    [{ step: 1.5 }, 'Tour step must be a whole number'],
    [{ step: 'two' }, 'Tour step must be a number'],
    [{ completed: 'yes' }, 'completed must be true or false'],
    [{ step: 1, extra: 1 }, 'Unknown field: extra'],
  ])('refuses %j with "%s"', async (body, message) => {
    const a = await makeUser(server);
    const res = await a.client.patch('/api/user/onboarding', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('is 401 when signed out', async () => {
    expect((await server.client().patch('/api/user/onboarding', { step: 1 })).status).toBe(401);
  });
});

describe('PUT /api/profile/update', () => {
  it('updates every field and answers the updated SelfUser', async () => {
    const a = await makeUser(server);
    const handle = freshHandle('all');
    const body = {
      handle,
      bio: 'Mini bio',
      status: 'Around',
      location: 'Toronto',
      personalLink: 'https://example.test/me',
      tagline: 'Hello there',
      quietHoursStart: '22:00',
      quietHoursEnd: '07:30',
      rateLimitPerDay: 20,
    };
    const res = await a.client.put('/api/profile/update', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, ...body });
    expect((await a.client.get('/api/user')).body).toMatchObject(body);
  });

  it('strips bidirectional controls from a handle and stores texts in NFC', async () => {
    const a = await makeUser(server);
    const handle = freshHandle('bidi');
    const res = await a.client.put('/api/profile/update', {
      handle: `\u202E${handle}\u2066`,
      bio: 'cafe\u0301',
    });
    expect(res.status).toBe(200);
    expect(res.body.handle).toBe(handle);
    expect(res.body.bio).toBe('caf\u00e9');
    // Setup takes the same rule.
    const b = await makeUser(server);
    const other = freshHandle('bidi2');
    const done = await b.client.post('/api/user/complete-onboarding', {
      handle: `${other.slice(0, 2)}\u200F${other.slice(2)}`,
    });
    expect(done.status).toBe(200);
    expect(done.body.handle).toBe(other);
  });

  it('clears a field with an empty string and leaves absent fields alone', async () => {
    const a = await makeUser(server);
    await a.client.put('/api/profile/update', {
      bio: 'keep me',
      status: 'drop me',
      tagline: 'drop me too',
      quietHoursStart: '23:00',
    });
    const res = await a.client.put('/api/profile/update', {
      status: '',
      tagline: '   ',
      quietHoursStart: '',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      bio: 'keep me',
      status: null,
      tagline: null,
      quietHoursStart: null,
    });
  });

  it.each([
    [{ handle: 'Not Valid' }, HANDLE_RULE],
    [{ handle: '' }, HANDLE_RULE],
    [{ bio: 'b'.repeat(151) }, 'Bio must be at most 150 characters'],
    [{ bio: 5 }, 'Bio must be text'],
    [{ status: 's'.repeat(101) }, 'Status must be at most 100 characters'],
    [{ location: 'l'.repeat(101) }, 'Location must be at most 100 characters'],
    [{ personalLink: 'ftp://x.test' }, 'Personal link must start with http:// or https://'],
    [
      { personalLink: `https://x.test/${'p'.repeat(200)}` },
      'Personal link must be at most 200 characters',
    ],
    [{ tagline: 't'.repeat(101) }, 'Tagline must be at most 100 characters'],
    [{ quietHoursStart: '25:00' }, 'Use the 24-hour format HH:MM'],
    [{ quietHoursEnd: '7pm' }, 'Use the 24-hour format HH:MM'],
    [{ rateLimitPerDay: 0 }, 'Daily ping limit must be at least 1'],
    [{ rateLimitPerDay: 1001 }, 'Daily ping limit must be at most 1000'],
    [{ rateLimitPerDay: 2.5 }, 'Daily ping limit must be a whole number'],
    [{ rateLimitPerDay: '50' }, 'Daily ping limit must be a number'],
    [{ profileImageUrl: 42 }, PHOTO_REMOVAL_ONLY],
    [{ profileImageUrl: 'data:image/png;base64,iVBORw0KGgo=' }, PHOTO_REMOVAL_ONLY],
    [{ email: 'me@x.test' }, 'Unknown field: email'],
    [{ isAdmin: true }, 'Unknown field: isAdmin'],
  ])('refuses %j with "%s" and changes nothing', async (body, message) => {
    const a = await makeUser(server);
    const res = await a.client.put('/api/profile/update', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toBe(message);
    const me = (await a.client.get('/api/user')).body;
    expect(me).toMatchObject({ handle: null, bio: null, isAdmin: false, rateLimitPerDay: 50 });
  });

  it.each([
    ['malformed JSON', '{"bio": '],
    ['a JSON array', '[{"bio":"x"}]'],
    ['null', 'null'],
  ])('answers %s with a 400, never a 500', async (_name, raw) => {
    const a = await makeUser(server);
    const res = await a.client.request('PUT', '/api/profile/update', undefined, {
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it("answers 409 'Username not available' for a handle someone else holds", async () => {
    const owner = await makeUser(server);
    const handle = freshHandle('held');
    await owner.client.put('/api/profile/update', { handle });
    const a = await makeUser(server);
    const res = await a.client.put('/api/profile/update', { handle, bio: 'with it' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('handle_taken');
    expect(res.body.error).toBe('Username not available');
    expect((await a.client.get('/api/user')).body.bio).toBeNull();
  });

  it("changes only the caller: B's update never touches A", async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    await a.client.put('/api/profile/update', { bio: 'A speaks', tagline: 'A line' });
    const res = await b.client.put('/api/profile/update', { bio: 'B speaks' });
    expect(res.body.id).toBe(b.id);
    const aNow = (await a.client.get('/api/user')).body;
    expect(aNow).toMatchObject({ id: a.id, bio: 'A speaks', tagline: 'A line' });
    const bNow = (await b.client.get('/api/user')).body;
    expect(bNow).toMatchObject({ id: b.id, bio: 'B speaks', tagline: null });
  });

  it('replays the same Idempotency-Key: same answer, replay header, one change', async () => {
    const a = await makeUser(server);
    const headers = { 'Idempotency-Key': `profile-${a.id}` };
    const since = await maxSeq();
    const first = await a.client.put('/api/profile/update', { bio: 'once' }, { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Changed in between: a replay must not re-apply the old body.
    await a.client.put('/api/profile/update', { bio: 'later' });
    const second = await a.client.put('/api/profile/update', { bio: 'once' }, { headers });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await a.client.get('/api/user')).body.bio).toBe('later');
    expect(await userChanges(a.id, since)).toHaveLength(2);
    const other = await a.client.put('/api/profile/update', { bio: 'different' }, { headers });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_mismatch');
  });

  it("records a 'user' change for the person and each friend, and nobody else", async () => {
    const a = await makeUser(server);
    const f1 = await makeUser(server);
    const f2 = await makeUser(server);
    const stranger = await makeUser(server);
    await makeFriends(a, f1);
    await makeFriends(f2, a);
    const since = await maxSeq();
    expect((await a.client.put('/api/profile/update', { status: 'Busy' })).status).toBe(200);
    const rows = await userChanges(a.id, since);
    expect(rows.map((r) => r.userId).sort()).toEqual([a.id, f1.id, f2.id].sort());
    expect(rows.every((r) => r.op === 'upsert')).toBe(true);
    expect(rows.map((r) => r.userId)).not.toContain(stranger.id);
  });

  it('is 401 when signed out', async () => {
    const res = await server.client().put('/api/profile/update', { bio: 'x' });
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });
});

describe('PUT /api/profile/photo', () => {
  it('re-encodes any image (a PNG declared as image/jpeg) to square WebP at 264 and 96 px', async () => {
    const a = await makeUser(server);
    const res = await uploadPhoto(a, PNG, 'image/jpeg');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, email: a.email });
    const url: string = res.body.profileImageUrl;
    expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.webp$/);
    for (const [served, px] of [
      [url, 264],
      [smallPhotoUrl(url)!, 96],
    ] as const) {
      const got = await fetch(server.url + served);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await got.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: px, height: px });
    }
    expect((await a.client.get('/api/user')).body.profileImageUrl).toBe(url);
  });

  it('serves a phone photo back without its EXIF GPS position (or any metadata)', async () => {
    const a = await makeUser(server);
    const photo = await phonePhoto();
    expect(await gpsOf(photo)).toMatchObject({ GPSLatitudeRef: 'N' });
    const res = await uploadPhoto(a, photo, 'image/jpeg');
    expect(res.status).toBe(200);
    for (const served of [res.body.profileImageUrl, smallPhotoUrl(res.body.profileImageUrl)!]) {
      const bytes = Buffer.from(await (await fetch(server.url + served)).arrayBuffer());
      expect(await gpsOf(bytes)).toBeUndefined();
      expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    }
  });

  it('never serves back a script appended after a valid image (polyglot)', async () => {
    const a = await makeUser(server);
    const res = await uploadPhoto(a, polyglot(await phonePhoto(300, 300)), 'image/jpeg');
    expect(res.status).toBe(200);
    for (const served of [res.body.profileImageUrl, smallPhotoUrl(res.body.profileImageUrl)!]) {
      const bytes = Buffer.from(await (await fetch(server.url + served)).arrayBuffer());
      expect(bytes.includes('<script')).toBe(false);
      expect(bytes.includes(SCRIPT)).toBe(false);
    }
    const onDisk = uploads().map((f) => readFileSync(path.join(server.config.uploadsDir, f)));
    expect(onDisk.some((b) => b.includes(SCRIPT))).toBe(false);
  });

  it('refuses an image that cannot be decoded behind its magic bytes (400), storing nothing', async () => {
    const a = await makeUser(server);
    const before = uploads();
    const res = await uploadPhoto(a, JPEG, 'image/jpeg');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'That image could not be read. Please choose another JPG, PNG or GIF.',
      code: 'validation_failed',
    });
    expect(uploads()).toEqual(before);
  });

  it('refuses a text file declared as image/png and stores nothing', async () => {
    const a = await makeUser(server);
    const before = uploads();
    const res = await uploadPhoto(a, Buffer.from('I am only text, honestly.'), 'image/png');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: NOT_AN_IMAGE, code: 'validation_failed' });
    expect(uploads()).toEqual(before);
    expect((await a.client.get('/api/user')).body.profileImageUrl).toBeNull();
  });

  it('refuses a 6 MB upload with 413 and the spec sentence, and stores nothing', async () => {
    const a = await makeUser(server);
    const big = Buffer.alloc(6_000_000);
    PNG.copy(big);
    const before = uploads();
    const res = await uploadPhoto(a, big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      error: 'File too large - Please select an image smaller than 5MB',
      code: 'payload_too_large',
    });
    expect(uploads()).toEqual(before);
  });

  it('refuses a compressed upload (415): its size on the wire is not its size', async () => {
    const a = await makeUser(server);
    const res = await a.client.request('PUT', '/api/profile/photo', undefined, {
      raw: gzipSync(PNG),
      headers: { 'content-type': 'image/png', 'content-encoding': 'gzip' },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('is 401 when signed out', async () => {
    const res = await server.client().request('PUT', '/api/profile/photo', undefined, {
      raw: PNG,
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });

  it('deletes the old file when the photo is replaced, and sets null when removed', async () => {
    const a = await makeUser(server);
    const first = (await uploadPhoto(a, PNG)).body.profileImageUrl as string;
    const firstFiles = [first, smallPhotoUrl(first)!].map((u) =>
      path.join(server.config.uploadsDir, path.basename(u)),
    );
    expect(firstFiles.every((f) => existsSync(f))).toBe(true);
    const jpeg = await phonePhoto(200, 200);
    const second = (await uploadPhoto(a, jpeg, 'image/jpeg')).body.profileImageUrl as string;
    expect(second).not.toBe(first);
    expect(firstFiles.some((f) => existsSync(f))).toBe(false);
    expect((await fetch(server.url + first)).status).not.toBe(200);
    const secondFile = path.join(server.config.uploadsDir, path.basename(second));
    const secondSmall = path.join(server.config.uploadsDir, path.basename(smallPhotoUrl(second)!));
    expect(existsSync(secondFile)).toBe(true);

    // Other edits leave the photo alone.
    const edit = await a.client.put('/api/profile/update', { bio: 'new bio' });
    expect(edit.body.profileImageUrl).toBe(second);
    expect(existsSync(secondFile)).toBe(true);

    const removed = await a.client.put('/api/profile/update', { profileImageUrl: '' });
    expect(removed.status).toBe(200);
    expect(removed.body.profileImageUrl).toBeNull();
    expect(existsSync(secondFile)).toBe(false);
    expect(existsSync(secondSmall)).toBe(false);
    expect((await a.client.get('/api/user')).body.profileImageUrl).toBeNull();
  });

  it('does not write a second file when an upload is replayed with its Idempotency-Key', async () => {
    const a = await makeUser(server);
    const headers = { 'Idempotency-Key': `photo-${a.id}` };
    const first = await uploadPhoto(a, PNG, 'image/png', headers);
    expect(first.status).toBe(200);
    const count = uploads().length;
    const again = await uploadPhoto(a, PNG, 'image/png', headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.profileImageUrl).toBe(first.body.profileImageUrl);
    expect(uploads().length).toBe(count);
  });

  it("tells the person's friends (a 'user' change), like any profile edit", async () => {
    const a = await makeUser(server);
    const f = await makeUser(server);
    await makeFriends(a, f);
    const since = await maxSeq();
    expect((await uploadPhoto(a, PNG)).status).toBe(200);
    const told = (await userChanges(a.id, since)).map((c) => c.userId).sort();
    expect(told).toEqual([a.id, f.id].sort());
  });
});

describe('PUT /api/privacy-settings', () => {
  it('switches visibility, answers SelfUser and tells friends', async () => {
    const a = await makeUser(server);
    const f = await makeUser(server);
    await makeFriends(a, f);
    const since = await maxSeq();
    const res = await a.client.put('/api/privacy-settings', { profileVisibility: 'private' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, profileVisibility: 'private' });
    expect((await a.client.get('/api/user')).body.profileVisibility).toBe('private');
    const rows = await userChanges(a.id, since);
    expect(rows.map((r) => r.userId).sort()).toEqual([a.id, f.id].sort());
    const back = await a.client.put('/api/privacy-settings', { profileVisibility: 'public' });
    expect(back.body.profileVisibility).toBe('public');
  });

  it.each([
    [{ profileVisibility: 'friends' }, "Profile visibility must be 'public' or 'private'"],
    [{}, "Profile visibility must be 'public' or 'private'"],
    [{ profileVisibility: 'public', other: 1 }, 'Unknown field: other'],
  ])('refuses %j with "%s"', async (body, message) => {
    const a = await makeUser(server);
    const res = await a.client.put('/api/privacy-settings', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('is 401 when signed out', async () => {
    const res = await server
      .client()
      .put('/api/privacy-settings', { profileVisibility: 'private' });
    expect(res.status).toBe(401);
  });
});
