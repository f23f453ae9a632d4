/**
 * Guarantees 2, 4 and 8 end to end, property-based (fast-check): the PWA's real sync code on
 * several devices against the real sync server in its own process, with a faulty network and
 * server crashes in between.
 *
 * - People: Ann (two devices), Ben and Cat; Ann-Ben and Ben-Cat are friends, Ann and Cat are
 *   not (so what each may see differs); Ben accepts at most 3 pings a day from each friend, so
 *   some writes are refused for good (rolled back, guarantee 5).
 * - A device is its own IndexedDB (a fake-indexeddb IDBFactory) with its own copy of the PWA's
 *   modules (vi.resetModules): `localWrite` through the screens' own write helpers, the outbox
 *   worker (`drainOutbox` → `postBatch` → POST /api/sync/batch) and the pull worker (`pullAll`
 *   ← GET /api/sync/pull), as live-engine.ts wires them (a pull flushes the outbox first).
 * - The network between each device and the server is a fault layer over Node's fetch: a
 *   request is dropped, its answer is dropped after the server handled it, delayed, sent twice
 *   at once, held and delivered later (after the device gave up on it), or the server is
 *   killed while it is in flight.
 * - The server (sync-server/test/server-process.ts, driven through server-control.ts) is killed
 *   with SIGKILL and restarted at random points.
 *
 * After the commands: the held requests arrive, the network heals, the server runs, every
 * device drains and pulls until quiet. Then every device's Dexie tables equal a fresh snapshot of
 * its person (client-only fields aside), every write the server acknowledged to a device has
 * exactly one effect (its idempotency record, its entity, nothing else), and no refused write
 * left anything.
 *
 * Reproduce: the seed is printed; PROP_SEED=<seed> [PROP_PATH=<path>] replays a run (fast-check
 * prints both on failure, with the shrunk command list). PROP_RUNS=<n> runs more cases.
 */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import {
  MOODS,
  PullResponse,
  REACTION_TYPES,
  SURPRISE_EMOJIS,
  type BatchEntry,
  type BatchResponse,
  type PullQuery,
  type SelfUser,
  type UserSummary,
} from '@pingme/shared';
import { describe, expect, inject, it, vi } from 'vitest';
import type { EffectTable, OutboxRow } from '../db';

declare module 'vitest' {
  export interface ProvidedContext {
    syncServerControl: string;
  }
}

const SEED = Number(import.meta.env.PROP_SEED ?? 424242);
const RUNS = Number(import.meta.env.PROP_RUNS ?? 10);
const PATH = import.meta.env.PROP_PATH as string | undefined;
const MIN_COMMANDS = 20;
const MAX_COMMANDS = 40;
/** fast-check stops starting new runs (or shrinking) after this long. */
const TIME_LIMIT_MS = Number(import.meta.env.PROP_TIME_LIMIT_MS ?? 420_000);

// Node 20 has no `navigator`; the PWA's Background Sync request asks it for a service worker.
(globalThis as { navigator?: object }).navigator ??= {};

// ---------------------------------------------------------------------------------------------
// The server and its control channel (sync-server/test/server-control.ts).

const control = inject('syncServerControl');

async function controlCall<T>(method: 'GET' | 'POST', path: string): Promise<T> {
  const res = await fetch(control + path, { method });
  const body = (await res.json()) as T;
  if (!res.ok) throw new Error(`control ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}
let serverUrl = '';
let serverUp = false;
async function startServer() {
  serverUrl = (await controlCall<{ url: string }>('POST', '/start')).url;
  serverUp = true;
}
let kills = 0;
let faultsHit = 0;
async function killServer() {
  if (serverUp) kills++;
  serverUp = false;
  await controlCall('POST', '/kill');
}

// ---------------------------------------------------------------------------------------------
// A device: its own IndexedDB and its own copy of the PWA's sync modules.

async function loadDeviceModules() {
  vi.resetModules();
  // Dexie reads its IndexedDB when a database object is made: this device's db (../db) gets
  // its own factory, so no two devices share a database.
  const factory = new IDBFactory();
  Dexie.dependencies.indexedDB = factory;
  Dexie.dependencies.IDBKeyRange = IDBKeyRange;
  const dbModule = await import('../db');
  return {
    db: dbModule,
    localWrite: await import('./local-write'),
    outbox: await import('./outbox-worker'),
    pull: await import('./pull-worker'),
    transport: await import('./transport'),
    locks: await import('./locks'),
    pings: await import('../writes/pings'),
    prompts: await import('../writes/prompts'),
    moods: await import('../writes/moods'),
    anchorWrites: await import('../writes/anchors'),
    profile: await import('../writes/profile'),
    anchors: await import('../dialogs/anchor-templates'),
  };
}
type Modules = Awaited<ReturnType<typeof loadDeviceModules>>;

type FaultKind = 'ok' | 'dropRequest' | 'dropResponse' | 'delay' | 'duplicate' | 'late' | 'killMid';
interface Fault {
  kind: FaultKind;
  ms: number;
}

interface Person {
  name: string;
  id: string;
  email: string;
  password: string;
}

/** What an outbox entry does, for messages. */
const what = (entry: OutboxRow) => ('name' in entry ? entry.name : `${entry.method} ${entry.path}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Device {
  cookie = '';
  /** Faults for the next requests, in order (then the network is fine). */
  faults: Fault[] = [];
  /** Requests the network holds: they reach the server at a later step. */
  held: (() => Promise<void>)[] = [];
  /** Every entry this device's writes queued. */
  created: OutboxRow[] = [];
  /** Acknowledged (2xx) entries and the body the server answered. */
  acked = new Map<string, unknown>();
  /** Refused for good (rolled back) and the status. */
  rejected = new Map<string, number>();
  log: string[] = [];

  constructor(
    readonly name: string,
    readonly person: Person,
    readonly m: Modules,
  ) {}

  get db() {
    return this.m.db.db;
  }

  /** The network between this device and the server. */
  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const fault = this.faults.shift() ?? { kind: 'ok', ms: 0 };
    if (fault.kind !== 'ok') faultsHit++;
    const url = serverUrl + String(input);
    const send = async (): Promise<Response> => {
      const headers = new Headers(init.headers);
      if (this.cookie) headers.set('cookie', this.cookie);
      const res = await fetch(url, { ...init, headers });
      this.takeCookies(res);
      const text = await res.text();
      return new Response(text, { status: res.status, headers: res.headers });
    };
    const lost = () => new TypeError(`fetch failed (${fault.kind})`);
    switch (fault.kind) {
      case 'ok':
        return send();
      case 'dropRequest':
        throw lost();
      case 'dropResponse':
        await send();
        throw lost();
      case 'delay':
        await sleep(fault.ms);
        return send();
      case 'duplicate': {
        const [first] = await Promise.allSettled([send(), sleep(fault.ms % 3).then(send)]);
        if (first.status === 'rejected') throw first.reason;
        return first.value;
      }
      case 'late':
        this.held.push(async () => {
          await send().catch(() => {});
        });
        throw lost();
      case 'killMid': {
        const answer = send();
        answer.catch(() => {}); // its failure is the caller's, once it is returned
        await sleep(fault.ms % 10);
        await killServer();
        return answer;
      }
    }
  };

  private takeCookies(res: Response) {
    const jar = new Map(
      this.cookie
        .split('; ')
        .filter(Boolean)
        .map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)] as const),
    );
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const value = pair!.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(pair!.slice(0, eq).trim());
      else jar.set(pair!.slice(0, eq).trim(), value);
    }
    this.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async signIn() {
    const res = await this.fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: this.person.email, password: this.person.password }),
    });
    if (res.status !== 200) throw new Error(`${this.name} could not sign in: ${res.status}`);
  }

  /** The outbox worker (C2) as live-engine.ts runs it, one drain under the lock. */
  async drain() {
    const { drainOutbox } = this.m.outbox;
    const result = await this.m.locks.withLock(this.m.locks.OUTBOX_LOCK, () =>
      drainOutbox({
        send: async (entries: BatchEntry[]): Promise<BatchResponse> => {
          const res = await this.m.transport.postBatch(entries, this.fetch);
          for (const r of res.results) {
            if (r.status >= 200 && r.status < 300) this.acked.set(r.idempotencyKey, r.body);
          }
          return res;
        },
        onRejected: (entry, status) => {
          this.rejected.set(entry.idempotencyKey, status);
        },
        // Small batches, so that a drain sends several (the next read while one travels, an
        // answer written while the next travels) under the faults.
        maxEntries: 3,
      }),
    );
    this.log.push(
      `drain: sent ${result.sent}, rejected ${result.rejected}` +
        (result.stopped ? `, stopped: ${result.stopped.error.slice(0, 80)}` : ''),
    );
    return result;
  }

  /** The pull worker (C3) as live-engine.ts runs it: flush first (P0), then pull all pages. */
  async pullNow() {
    await this.drain();
    const { pullAll, BadSnapshotToken } = this.m.pull;
    await this.m.locks.withLock(this.m.locks.PULL_LOCK, () =>
      pullAll({
        userId: this.person.id,
        fetchPage: async (query: PullQuery) => {
          const params = new URLSearchParams();
          for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
          const res = await this.fetch(`/api/sync/pull?${params}`, {
            headers: { accept: 'application/json' },
          });
          const text = await res.text();
          if (!res.ok) {
            if (query.snapshot && res.status === 400) throw new BadSnapshotToken(text);
            throw new Error(`pull: ${res.status} ${text.slice(0, 120)}`);
          }
          return PullResponse.parse(JSON.parse(text));
        },
      }),
    );
  }

  async deliverHeld() {
    const held = this.held.splice(0);
    await Promise.all(held.map((h) => h()));
  }

  // --- What the screens read ---

  async me(): Promise<SelfUser> {
    const row = await this.db.users.get(this.person.id);
    if (!row || row.relation !== 'self') throw new Error(`${this.name} has no self row`);
    const { relation: _r, ...me } = row as typeof row & { pending?: boolean };
    delete (me as { pending?: boolean }).pending;
    return me as SelfUser;
  }

  async friends(): Promise<UserSummary[]> {
    const rows = await this.db.users.where('relation').equals('friend').toArray();
    // By name (Ann, Ben, Cat), so a command's friend index means the same person in every run.
    return rows.sort((a, b) => (a.firstName ?? '').localeCompare(b.firstName ?? ''));
  }
}

// ---------------------------------------------------------------------------------------------
// Commands.

type Write =
  | { k: 'ping'; friend: number; prompt: number }
  | { k: 'group'; prompt: number }
  | { k: 'custom'; friend: number; text: string }
  | { k: 'surprise'; friend: number; emoji: number }
  | { k: 'react'; ping: number; reaction: number }
  | { k: 'read'; ping: number }
  | { k: 'createPrompt'; text: string }
  | { k: 'assign'; prompt: number; friend: number }
  | { k: 'deletePrompt'; prompt: number }
  | { k: 'mood'; friend: number; mood: number; note: string | null }
  | { k: 'profile'; field: 'tagline' | 'status' | 'bio'; value: string }
  | { k: 'anchor'; friend: number; text: string }
  | { k: 'anchorRespond'; anchor: number; accept: boolean };

type Command =
  | { t: 'write'; d: number; w: Write }
  | { t: 'drain'; d: number; faults: Fault[] }
  | { t: 'pull'; d: number; faults: Fault[] }
  | { t: 'deliverHeld'; d: number }
  /** Every device pulls (and so drains) at the same time, each with its own faults. */
  | { t: 'together'; faults: Fault[][] }
  | { t: 'kill' }
  | { t: 'restart' }
  | { t: 'idle' };

const DEVICES = 4;
const idx = fc.nat({ max: 7 });
const text = fc.constantFrom('hi', 'miss you', 'coffee?', 'on my way', 'good luck today');

const writeArb: fc.Arbitrary<Write> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ k: fc.constant('ping' as const), friend: idx, prompt: idx }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('group' as const), prompt: idx }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('custom' as const), friend: idx, text }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('surprise' as const), friend: idx, emoji: idx }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ k: fc.constant('react' as const), ping: idx, reaction: idx }),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('read' as const), ping: idx }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('createPrompt' as const), text }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('assign' as const), prompt: idx, friend: idx }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('deletePrompt' as const), prompt: idx }) },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('mood' as const),
      friend: idx,
      mood: fc.nat({ max: MOODS.length - 1 }),
      note: fc.option(text, { nil: null }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('profile' as const),
      field: fc.constantFrom('tagline' as const, 'status' as const, 'bio' as const),
      value: text,
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('anchor' as const), friend: idx, text }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('anchorRespond' as const),
      anchor: idx,
      accept: fc.boolean(),
    }),
  },
);

const faultArb: fc.Arbitrary<Fault> = fc.record({
  kind: fc.oneof(
    { weight: 6, arbitrary: fc.constant('ok' as const) },
    { weight: 2, arbitrary: fc.constant('dropRequest' as const) },
    { weight: 2, arbitrary: fc.constant('dropResponse' as const) },
    { weight: 1, arbitrary: fc.constant('delay' as const) },
    { weight: 2, arbitrary: fc.constant('duplicate' as const) },
    { weight: 1, arbitrary: fc.constant('late' as const) },
    { weight: 1, arbitrary: fc.constant('killMid' as const) },
  ),
  ms: fc.nat({ max: 40 }),
});
const faults = fc.array(faultArb, { maxLength: 3 });
const device = fc.nat({ max: DEVICES - 1 });

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  // Shrinking turns commands into 'idle' (cross-shrink to the first): a failing case keeps its
  // length but only the commands it needs.
  { withCrossShrink: true },
  { weight: 1, arbitrary: fc.constant({ t: 'idle' as const }) },
  {
    weight: 16,
    arbitrary: fc.record({ t: fc.constant('write' as const), d: device, w: writeArb }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('drain' as const), d: device, faults }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('pull' as const), d: device, faults }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('deliverHeld' as const), d: device }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('together' as const),
      faults: fc.array(faults, { minLength: DEVICES, maxLength: DEVICES }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('kill' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('restart' as const) }) },
);

const pick = <T>(items: readonly T[], i: number): T | undefined =>
  items.length ? items[i % items.length] : undefined;

/** One write, through the helper the screen uses; false when the device has nothing to act on. */
async function write(dev: Device, w: Write): Promise<boolean> {
  const { pings, prompts, moods, anchorWrites, profile } = dev.m;
  const failed = { description: 'Failed' };
  const db = dev.db;
  const me = await dev.me();
  const myFriends = await dev.friends();
  const defaults = (await db.prompts.toArray())
    .filter((p) => p.isDefault)
    .sort((a, b) => a.id.localeCompare(b.id));
  const mine = (await db.prompts.toArray())
    .filter((p) => !p.isDefault && p.ownerId === me.id)
    .sort((a, b) => a.id.localeCompare(b.id));
  const received = (await db.pings.toArray())
    .filter((p) => p.receiverId === me.id)
    .sort((a, b) => a.id.localeCompare(b.id));
  switch (w.k) {
    case 'ping':
    case 'group': {
      const prompt = pick(defaults, w.prompt);
      const to = w.k === 'group' ? myFriends : [pick(myFriends, w.friend)!].filter(Boolean);
      if (!prompt || to.length === 0 || (w.k === 'group' && to.length < 2)) return false;
      await pings.sendPing(me, to, { kind: 'prompt', prompt }, failed);
      return true;
    }
    case 'custom': {
      const friend = pick(myFriends, w.friend);
      if (!friend) return false;
      await pings.sendPing(me, friend, { kind: 'custom', text: w.text, emoji: '🌟' }, failed);
      return true;
    }
    case 'surprise': {
      const friend = pick(myFriends, w.friend);
      if (!friend) return false;
      const emoji = pick(SURPRISE_EMOJIS, w.emoji)!;
      await pings.sendPing(
        me,
        friend,
        { kind: 'surprise', text: 'Thinking of you', emoji },
        failed,
      );
      return true;
    }
    case 'react': {
      const ping = pick(received, w.ping);
      if (!ping) return false;
      await pings.reactToPing(ping, me.id, pick(REACTION_TYPES, w.reaction)!);
      return true;
    }
    case 'read': {
      const ping = pick(
        received.filter((p) => !p.isRead),
        w.ping,
      );
      if (!ping) return false;
      await pings.markPingRead(ping);
      return true;
    }
    case 'createPrompt':
      await prompts.createPrompt(me.id, `${w.text} (${dev.created.length})`, '✨', failed);
      return true;
    case 'assign': {
      const prompt = pick(mine, w.prompt);
      const friend = pick(myFriends, w.friend);
      if (!prompt || !friend) return false;
      await prompts.assignPrompt(prompt.id, [friend], failed);
      return true;
    }
    case 'deletePrompt': {
      const prompt = pick(mine, w.prompt);
      if (!prompt) return false;
      await prompts.deletePrompt(prompt.id, failed);
      return true;
    }
    case 'mood': {
      const friend = pick(myFriends, w.friend);
      if (!friend) return false;
      await moods.shareMood({
        meId: me.id,
        friendId: friend.id,
        mood: MOODS[w.mood]!,
        emoji: '😊',
        note: w.note,
      });
      return true;
    }
    case 'profile':
      await profile.saveProfile(me, { [w.field]: w.value });
      return true;
    case 'anchor': {
      const friend = pick(myFriends, w.friend);
      if (!friend) return false;
      await anchorWrite(dev, me, friend, w.text);
      return true;
    }
    case 'anchorRespond': {
      const incoming = (await db.anchors.toArray())
        .filter((a) => a.status === 'pending' && a.friendId === me.id)
        .sort((a, b) => a.id.localeCompare(b.id));
      const anchor = pick(incoming, w.anchor);
      if (!anchor) return false;
      await anchorWrites.respondToAnchor(anchor, w.accept ? 'accept' : 'decline');
      return true;
    }
  }
}

/** The write AnchorCustomizeForm makes on submit (the form itself needs React). */
async function anchorWrite(dev: Device, me: SelfUser, friend: UserSummary, message: string) {
  const { uuidv7 } = await import('@pingme/shared');
  const anchors = await dev.db.anchors.toArray();
  const incoming = dev.m.anchors.incomingRequest(anchors, me.id, friend.id);
  await dev.m.anchorWrites.createAnchor({
    me,
    friend,
    request: { id: uuidv7(), friendId: friend.id, text: message, emoji: '⚓', color: '#e35120' },
    ...(incoming ? { incoming } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// One run.

let runNo = 0;

async function register(name: string, tag: string): Promise<{ person: Person; cookie: string }> {
  const email = `${name.toLowerCase()}-${tag}@convergence.test`;
  const password = 'correct horse battery';
  const res = await fetch(`${serverUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, firstName: name, lastName: 'Fault' }),
  });
  const body = (await res.json()) as { id: string };
  if (res.status !== 201) throw new Error(`register ${name}: ${res.status}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { person: { name, id: body.id, email, password }, cookie };
}

async function api(cookie: string, method: string, path: string, body?: unknown) {
  const res = await fetch(serverUrl + path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
}

/** Every record a person may see, as a fresh snapshot says (no faults, from no cursor). */
async function snapshot(cookie: string) {
  const { ENTITY_TABLE } = await import('./pull-worker');
  const tables = new Map<EffectTable, Map<string, unknown>>();
  for (const t of Object.values(ENTITY_TABLE)) tables.set(t, new Map());
  let query = '';
  for (let page = 0; page < 1000; page++) {
    const res = await api(cookie, 'GET', `/api/sync/pull${query}`);
    if (res.status !== 200) throw new Error(`snapshot: ${res.status}`);
    const body = PullResponse.parse(res.body);
    for (const c of body.changes) {
      const table = tables.get(ENTITY_TABLE[c.entity])!;
      if (c.op === 'upsert' && c.data) table.set(c.id, c.data);
      else table.delete(c.id);
    }
    if (!body.hasMore) return tables;
    query = `?snapshot=${body.snapshot}`;
  }
  throw new Error('snapshot does not end');
}

const CLIENT_ONLY = new Set(['pending', 'pendingReaction']);
function serverFields(row: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !CLIENT_ONLY.has(k)));
}

async function runCommands(commands: Command[]) {
  runNo++;
  kills = 0;
  faultsHit = 0;
  const devices: Device[] = [];
  const trace: string[] = [];
  try {
    await startServer();
    const tag = `${Date.now()}-${runNo}`;
    const ann = await register('Ann', tag);
    const ben = await register('Ben', tag);
    const cat = await register('Cat', tag);
    for (const [a, b] of [
      [ann, ben],
      [ben, cat],
    ] as const) {
      const req = await api(a.cookie, 'POST', '/api/friends/request', { friendId: b.person.id });
      const acc = await api(b.cookie, 'POST', '/api/friends/accept', {
        requestId: req.body.requestId,
      });
      if (acc.status !== 200) throw new Error(`friends: ${req.status} ${acc.status}`);
    }
    // Refusals for good: Ben takes at most 3 pings a day from each friend.
    expect(
      (await api(ben.cookie, 'PUT', '/api/profile/update', { rateLimitPerDay: 3 })).status,
    ).toBe(200);

    for (const [name, who] of [
      ['ann-phone', ann],
      ['ann-laptop', ann],
      ['ben-phone', ben],
      ['cat-phone', cat],
    ] as const) {
      const dev = new Device(name, who.person, await loadDeviceModules());
      await dev.signIn();
      await dev.pullNow(); // signing in brings a snapshot
      devices.push(dev);
    }
    // Each device really has its own database.
    const ids = await Promise.all(devices.map((d) => d.m.db.ensureDeviceId()));
    expect(new Set(ids).size).toBe(devices.length);

    for (const [i, cmd] of commands.entries()) {
      const dev = 'd' in cmd ? devices[cmd.d]! : undefined;
      let note = '';
      switch (cmd.t) {
        case 'write': {
          const before = dev!.created.length;
          const last = await dev!.db.outbox.orderBy('seq').last();
          const did = await write(dev!, cmd.w);
          const added = await dev!.db.outbox
            .where('seq')
            .above(last?.seq ?? 0)
            .toArray();
          dev!.created.push(...added);
          note = did ? `queued ${dev!.created.length - before}` : 'nothing to act on';
          break;
        }
        case 'drain':
          dev!.faults = [...cmd.faults];
          await dev!.drain().catch((e: unknown) => (note = `failed: ${String(e)}`));
          dev!.faults = [];
          break;
        case 'pull':
          dev!.faults = [...cmd.faults];
          await dev!.pullNow().catch((e: unknown) => (note = `failed: ${String(e).slice(0, 80)}`));
          dev!.faults = [];
          break;
        case 'deliverHeld':
          await dev!.deliverHeld();
          break;
        case 'together': {
          devices.forEach((d, n) => (d.faults = [...(cmd.faults[n] ?? [])]));
          const results = await Promise.allSettled(devices.map((d) => d.pullNow()));
          devices.forEach((d) => (d.faults = []));
          note = results.map((r) => (r.status === 'fulfilled' ? 'ok' : 'failed')).join(',');
          break;
        }
        case 'kill':
          await killServer();
          break;
        case 'restart':
          await startServer();
          break;
        case 'idle':
          continue;
      }
      trace.push(`${i}: ${JSON.stringify(cmd)}${dev ? ` @${dev.name}` : ''} ${note}`);
    }

    // --- Heal: held requests arrive, the server runs, every device drains and pulls. ---
    for (const d of devices) await d.deliverHeld();
    await startServer();
    for (let round = 0; round < 5; round++) {
      for (const d of devices) await d.drain();
      if ((await Promise.all(devices.map((d) => d.db.outbox.count()))).every((n) => n === 0)) break;
    }
    for (const d of devices) {
      expect(await d.db.outbox.count(), `${d.name}'s outbox after healing`).toBe(0);
    }
    for (const d of devices) {
      // A connection the last kill left half-open may fail once; the device just pulls again.
      await d.pullNow().catch(() => d.pullNow());
    }

    // --- Convergence (guarantee 8): each device equals its person's fresh snapshot. ---
    const byPerson = new Map<string, Awaited<ReturnType<typeof snapshot>>>();
    for (const who of [ann, ben, cat]) byPerson.set(who.person.id, await snapshot(who.cookie));
    for (const d of devices) {
      const server = byPerson.get(d.person.id)!;
      for (const [table, rows] of server) {
        const local = (await d.db.table(table).toArray()) as Record<string, unknown>[];
        const stillPending = local.filter((r) => r.pending === true).map((r) => r.id);
        expect(stillPending, `${d.name}.${table}: rows still pending`).toEqual([]);
        const mine = new Map(local.map((r) => [r.id as string, serverFields(r)]));
        const diffs: string[] = [];
        for (const [id, data] of rows) {
          const have = mine.get(id);
          if (!have) diffs.push(`missing ${id}`);
          else if (JSON.stringify(sortKeys(have)) !== JSON.stringify(sortKeys(data))) {
            diffs.push(
              `differs ${id}: device ${JSON.stringify(have)} server ${JSON.stringify(data)}`,
            );
          }
        }
        for (const id of mine.keys()) if (!rows.has(id)) diffs.push(`extra ${id}`);
        expect(diffs, `${d.name}.${table} vs the server's view of ${d.person.name}`).toEqual([]);
      }
    }

    // --- Exactly once (guarantee 2) and nothing acknowledged lost (guarantee 4). ---
    const people = [ann, ben, cat].map((w) => w.person.id);
    const keys = await controlCall<{ caller: string; key: string; status: number }[]>(
      'GET',
      `/keys?caller=${people.join(',')}`,
    );
    const stored = new Map(keys.map((k) => [`${k.caller}:${k.key}`, k.status]));
    const visible = (table: EffectTable) =>
      new Set([...byPerson.values()].flatMap((s) => [...s.get(table)!.keys()]));
    const expected = {
      pings: new Set<string>(),
      moods: new Set<string>(),
      prompts: new Set<string>(),
    };
    const deletedPrompts = new Set<string>();
    for (const d of devices) {
      for (const entry of d.created) {
        const k = entry.idempotencyKey;
        const acked = d.acked.has(k);
        const refused = d.rejected.has(k);
        expect(acked !== refused, `${d.name} ${what(entry)}: acked xor refused`).toBe(true);
        const record = stored.get(`${d.person.id}:${k}`);
        if (acked) {
          // The server kept the write with its key, once (the key is the record's primary key).
          expect(record, `${d.name} ${what(entry)}: idempotency record`).toBeGreaterThanOrEqual(
            200,
          );
          expect(record).toBeLessThan(300);
          const body = d.acked.get(k) as { id?: string; pings?: { id: string }[] } | null;
          const name = 'name' in entry ? entry.name : undefined;
          if (name === 'ping.send' || name === 'ping.sendCustom') {
            expected.pings.add(body!.id!);
          } else if (name === 'ping.sendGroup') {
            for (const p of body!.pings!) expected.pings.add(p.id);
          } else if (name === 'mood.share') expected.moods.add(body!.id!);
          else if (name === 'prompt.create') expected.prompts.add(body!.id!);
          else if (name === 'prompt.delete' && 'args' in entry)
            deletedPrompts.add(entry.args.id as string);
        } else {
          // A refused write left nothing on the server.
          expect(record, `${d.name} ${what(entry)} was refused but stored`).toBeUndefined();
        }
      }
    }
    for (const id of deletedPrompts) expected.prompts.delete(id);
    expect([...visible('pings')].sort(), 'pings: exactly the acknowledged ones').toEqual(
      [...expected.pings].sort(),
    );
    expect([...visible('moods')].sort(), 'moods: exactly the acknowledged ones').toEqual(
      [...expected.moods].sort(),
    );
    const customPrompts = new Set(
      [...byPerson.values()].flatMap((s) =>
        [...s.get('prompts')!.values()]
          .filter((p) => !(p as { isDefault: boolean }).isDefault)
          .map((p) => (p as { id: string }).id),
      ),
    );
    expect([...customPrompts].sort(), 'custom prompts: created and not deleted').toEqual(
      [...expected.prompts].sort(),
    );
    const count = (f: (d: Device) => number) => devices.reduce((n, d) => n + f(d), 0);
    console.log(
      `convergence run ${runNo}: ${commands.length} commands, ${count((d) => d.created.length)} ` +
        `writes (${count((d) => d.acked.size)} acknowledged, ${count((d) => d.rejected.size)} ` +
        `refused), ${faultsHit} faults, ${kills} kills; server: ${expected.pings.size} pings, ` +
        `${expected.moods.size} moods, ${expected.prompts.size} custom prompts`,
    );
  } catch (err) {
    console.log(
      `convergence run ${runNo} failed: ${String(err).slice(0, 3000)}\nafter:\n${trace.join('\n')}\n` +
        devices.map((d) => `${d.name}: ${d.log.slice(-6).join(' | ')}`).join('\n'),
    );
    throw err;
  } finally {
    for (const d of devices) d.db.close();
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  }
  return value;
}

/**
 * Cases found earlier, run first every time (regressions):
 * - a mood shared, the batch's answer lost, a pull bringing the stored mood before the retry:
 *   the acknowledged write's optimistic row stayed `pending` for ever (fixed by
 *   `acknowledgeWrites` and `rememberServerRows` in effects.ts).
 */
const FOUND: Command[][] = [
  [
    { t: 'write', d: 0, w: { k: 'mood', friend: 0, mood: 8, note: 'on my way' } },
    { t: 'pull', d: 0, faults: [{ kind: 'dropResponse', ms: 0 }] },
  ],
  // - Ben asks Ann for an anchor while her request to him is on its way: the server accepts
  //   hers instead, and Ben's request stayed pending on his phone for ever (fixed on the server:
  //   a tombstone for the id Ben proposed, routes/anchors.ts).
  [
    { t: 'write', d: 2, w: { k: 'anchor', friend: 0, text: 'coffee?' } },
    { t: 'write', d: 0, w: { k: 'anchor', friend: 0, text: 'hi' } },
    { t: 'drain', d: 0, faults: [] },
  ],
];

describe('guarantee 8: convergence under faults', () => {
  it('devices of three people converge to what the server says each may see, each acknowledged write once', async () => {
    console.log(
      `convergence: PROP_SEED=${SEED} PROP_RUNS=${RUNS}${PATH ? ` PROP_PATH=${PATH}` : ''} ` +
        `(${MIN_COMMANDS}-${MAX_COMMANDS} commands a run)`,
    );
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        fc.array(commandArb, { minLength: MIN_COMMANDS, maxLength: MAX_COMMANDS }),
        async (commands) => {
          await runCommands(commands);
        },
      ),
      {
        seed: SEED,
        numRuns: RUNS,
        examples: FOUND.map((commands) => [commands] as [Command[]]),
        ...(PATH ? { path: PATH } : {}),
        interruptAfterTimeLimit: TIME_LIMIT_MS,
        markInterruptAsFailure: false,
      },
    );
    console.log(`convergence: ${runNo} runs in ${Math.round((Date.now() - started) / 1000)} s`);
    expect(runNo).toBeGreaterThan(0);
  });
});
