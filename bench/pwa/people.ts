/**
 * The person whose Home the Lighthouse bench measures, made through the real server's REST API
 * (like pwa/e2e/support/people.ts): an account past the onboarding setup with a handle and bio,
 * five friends, pings both ways (prompt, custom and surprise, some read and reacted to), custom
 * prompts (one assigned), a mood shared by a friend, an accepted anchor and a waiting one, and a
 * pending friend request. Answers the person's session cookie and what Home should show.
 */
import { uuidv7 } from '@pingme/shared';

export interface BenchPerson {
  id: string;
  email: string;
  firstName: string;
  /** Cookie header: `pingme.sid=…; pingme.sid.sig=…`. */
  cookie: string;
}

export interface HomeWorld {
  me: BenchPerson;
  friends: BenchPerson[];
  /** Texts Home must show once the first sync has landed (friend names in Quick Ping). */
  expectedTexts: string[];
  counts: { pingsSent: number; pingsReceived: number; friends: number; prompts: number };
}

const PASSWORD = 'correct horse battery';
const defaultPrompt = (n: number) =>
  `00000000-0000-7000-8000-0000000000${n.toString(16).padStart(2, '0')}`;

function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** A REST call as `who`; throws on any status ≥ 300 with the answer's text. */
async function call<T = unknown>(
  base: string,
  who: BenchPerson | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(who ? { cookie: who.cookie } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

let counter = 0;
async function register(base: string, firstName: string, lastName: string): Promise<BenchPerson> {
  counter += 1;
  const email = `person${counter}-${process.pid}@bench.pingme.test`;
  const res = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, firstName, lastName }),
  });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
  const user = (await res.json()) as { id: string };
  const who: BenchPerson = { id: user.id, email, firstName, cookie: cookieOf(res) };
  // Past the onboarding setup (spec section 6) with the guided tour finished, so '/' is Home.
  await call(base, who, 'PATCH', '/api/user/onboarding', { completed: true, step: 5 }).catch(
    async () => call(base, who, 'PATCH', '/api/user/onboarding', { completed: true }),
  );
  return who;
}

async function befriend(base: string, a: BenchPerson, b: BenchPerson): Promise<void> {
  const asked = await call<{ requestId: string; status: string }>(
    base,
    a,
    'POST',
    '/api/friends/request',
    { friendId: b.id },
  );
  if (asked.status !== 'accepted')
    await call(base, b, 'POST', '/api/friends/accept', { requestId: asked.requestId });
}

/** Creates the person and their world on the server at `base`. */
export async function makeHomeWorld(base: string): Promise<HomeWorld> {
  const me = await register(base, 'Maya', 'Lindqvist');
  await call(base, me, 'PUT', '/api/profile/update', {
    handle: `maya_${process.pid % 100000}`,
    bio: 'Coffee, climbing and long walks.',
  });
  const names: [string, string][] = [
    ['Noah', 'Okafor'],
    ['Lena', 'Brandt'],
    ['Omar', 'Haddad'],
    ['Priya', 'Raman'],
    ['Tomás', 'Silva'],
  ];
  const friends: BenchPerson[] = [];
  for (const [first, last] of names) {
    const f = await register(base, first, last);
    await befriend(base, f, me);
    friends.push(f);
  }
  // Someone waiting for an answer (Home's counter of received requests).
  const stranger = await register(base, 'Iris', 'Novak');
  await call(base, stranger, 'POST', '/api/friends/request', { friendId: me.id });

  // Custom prompts, one assigned to two friends.
  const promptTexts = [
    ['Ping me when you finish the book', '📚'],
    ['Ping me when you are at the crag', '🧗'],
    ['Ping me when the coffee is ready', '☕'],
  ] as const;
  const prompts: string[] = [];
  for (const [text, emoji] of promptTexts) {
    const p = await call<{ id: string }>(base, me, 'POST', '/api/prompts', {
      id: uuidv7(),
      text,
      emoji,
    });
    prompts.push(p.id);
  }
  for (const f of friends.slice(0, 2))
    await call(base, me, 'POST', '/api/prompts/assign', { promptId: prompts[0], friendId: f.id });

  // Pings both ways: each friend pings Maya twice (a prompt and a custom ping), Maya pings each
  // friend once, plus a surprise; Maya reads and reacts to some of what she received.
  let pingsSent = 0;
  let pingsReceived = 0;
  const received: string[] = [];
  for (const [i, f] of friends.entries()) {
    const a = await call<{ id: string }>(base, f, 'POST', '/api/pings', {
      promptId: defaultPrompt((i % 6) + 1),
      receiverId: me.id,
    });
    const b = await call<{ id: string }>(base, f, 'POST', '/api/pings/custom', {
      receiverId: me.id,
      customText: `Thinking of you today (${i + 1})`,
      customEmoji: '☀️',
      ...(i === 4 ? { surprise: true } : {}),
    });
    received.push(a.id, b.id);
    pingsReceived += 2;
    await call(base, me, 'POST', '/api/pings', {
      promptId: defaultPrompt(((i + 2) % 6) + 1),
      receiverId: f.id,
    });
    pingsSent += 1;
  }
  await call(base, me, 'POST', '/api/pings', { promptId: prompts[0], receiverId: friends[0]!.id });
  pingsSent += 1;
  for (const id of received.slice(0, 4)) {
    await call(base, me, 'PATCH', `/api/pings/${id}/read`).catch(() => undefined);
    await call(base, me, 'POST', `/api/pings/${id}/reactions`, { reactionType: 'heart' });
  }

  // A mood a friend shared with Maya, and one she shared.
  await call(base, friends[1]!, 'POST', '/api/moods', {
    friendId: me.id,
    mood: 'happy',
    emoji: '😊',
    note: 'Sunny day!',
  });
  await call(base, me, 'POST', '/api/moods', {
    friendId: friends[2]!.id,
    mood: 'chill',
    emoji: '😌',
  });

  // An accepted anchor (Maya asked, Noah accepted) and one Lena asked Maya for.
  const anchor = await call<{ id: string; status: string }>(
    base,
    me,
    'POST',
    '/api/profile/anchors',
    { friendId: friends[0]!.id, text: "Ping me when you're feeling low", emoji: '⚓' },
  );
  if (anchor.status !== 'accepted')
    await call(base, friends[0]!, 'PATCH', `/api/profile/anchors/${anchor.id}/respond`, {
      response: 'accept',
    });
  await call(base, friends[1]!, 'POST', '/api/profile/anchors', {
    friendId: me.id,
    text: 'Ping me when you miss me',
    emoji: '💕',
  });

  return {
    me,
    friends,
    expectedTexts: friends.map((f) => f.firstName),
    counts: {
      pingsSent,
      pingsReceived,
      friends: friends.length,
      prompts: prompts.length,
    },
  };
}
