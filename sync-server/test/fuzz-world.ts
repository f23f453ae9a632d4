/**
 * The fuzz run's small world (test/fuzz.test.ts): Alice (the fuzzing client), her friends Bob and
 * Carol, Dave (a stranger with a pending request to Alice), and Erin (an admin), with pings,
 * reactions, a moment, custom prompts, anchors, moods, a report and friend requests, all made
 * through the API. Its ids are what "other people's ids" are drawn from.
 */
import { expect } from 'vitest';
import {
  makeFriends,
  makeUser,
  verifyEmailOf,
  type Client,
  type MadeUser,
  type TestServer,
} from './harness';

export const FUZZ_ADMIN_EMAIL = 'erin-fuzz-admin@example.test';
export const FUZZ_PASSWORD = 'fuzz world password';

export interface FuzzPerson {
  name: string;
  id: string;
  email: string;
  inviteCode: string;
  client: Client;
}

export interface FuzzWorld {
  alice: FuzzPerson;
  bob: FuzzPerson;
  carol: FuzzPerson;
  dave: FuzzPerson;
  erin: FuzzPerson;
  /** Every id the world holds, by kind: people, pings, prompts, anchors, moods, ... */
  ids: Record<string, string[]>;
  /** Non-id strings that name things: invite codes, handles, e-mails, push endpoints. */
  names: string[];
}

async function ok<T = any>(p: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const res = await p;
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
}

async function person(server: TestServer, name: string, email?: string): Promise<FuzzPerson> {
  let made: MadeUser = await makeUser(server, {
    email: email ?? `${name.toLowerCase()}-fuzz@example.test`,
    firstName: name,
    lastName: 'Fuzz',
    password: FUZZ_PASSWORD,
  });
  // The admin's listed address counts once it is verified.
  if (email === FUZZ_ADMIN_EMAIL) made = await verifyEmailOf(server, made);
  const self = await ok(made.client.get('/api/user'));
  await ok(
    made.client.post('/api/user/complete-onboarding', { handle: `${name.toLowerCase()}_fuzz` }),
  );
  return {
    name,
    id: made.id,
    email: made.email,
    inviteCode: self.inviteCode,
    client: made.client,
  };
}

export async function buildWorld(server: TestServer): Promise<FuzzWorld> {
  const [alice, bob, carol, dave, erin] = [
    await person(server, 'Alice'),
    await person(server, 'Bob'),
    await person(server, 'Carol'),
    await person(server, 'Dave'),
    await person(server, 'Erin', FUZZ_ADMIN_EMAIL),
  ] as [FuzzPerson, FuzzPerson, FuzzPerson, FuzzPerson, FuzzPerson];
  const m = (p: FuzzPerson): MadeUser => ({
    client: p.client,
    id: p.id,
    email: p.email,
    password: FUZZ_PASSWORD,
    user: {},
  });
  await makeFriends(m(alice), m(bob));
  await makeFriends(m(alice), m(carol));
  await makeFriends(m(bob), m(carol));
  const daveToAlice = await ok(dave.client.post('/api/friends/request', { friendId: alice.id }));
  const carolToDave = await ok(carol.client.post('/api/friends/request', { friendId: dave.id }));

  const defaults = await ok<{ id: string }[]>(alice.client.get('/api/prompts/default'));
  const hug = defaults[0]!.id;
  const alicePrompt = await ok(
    alice.client.post('/api/prompts', { text: 'Alice asks', emoji: '🍵' }),
  );
  const bobPrompt = await ok(bob.client.post('/api/prompts', { text: 'Bob asks', emoji: '🎲' }));
  await ok(
    alice.client.post('/api/prompts/assign', { promptId: alicePrompt.id, friendId: bob.id }),
  );

  const send = (from: FuzzPerson, to: FuzzPerson, promptId = hug) =>
    ok(from.client.post('/api/pings', { promptId, receiverId: to.id }));
  const pings = [
    await send(alice, bob),
    await send(bob, alice, bobPrompt.id),
    await send(carol, bob),
    await send(bob, carol),
    await ok(carol.client.post('/api/pings/custom', { receiverId: alice.id, customText: 'hey' })),
  ];
  const group = await ok(
    bob.client.post('/api/pings/group', { promptId: hug, receiverIds: [alice.id, carol.id] }),
  );
  const reacted = await ok(
    bob.client.post(`/api/pings/${pings[0].id}/reactions`, { reactionType: 'heart' }),
  );
  const bookmarked = await ok(
    bob.client.patch(`/api/pings/${pings[2].id}/bookmark`, { bookmarked: true, title: 'Carol' }),
  );
  expect(bookmarked.isBookmarked).toBe(true);
  const aliceToBob = await ok(
    alice.client.post('/api/profile/anchors', { friendId: bob.id, text: 'Tea on Sunday?' }),
  );
  const bobToCarol = await ok(
    bob.client.post('/api/profile/anchors', { friendId: carol.id, text: 'Run on Monday' }),
  );
  await ok(
    carol.client.patch(`/api/profile/anchors/${bobToCarol.id}/respond`, { response: 'accept' }),
  );
  const moods = [
    await ok(bob.client.post('/api/moods', { friendId: alice.id, mood: 'happy', emoji: '😊' })),
    await ok(carol.client.post('/api/moods', { friendId: bob.id, mood: 'tired', emoji: '😴' })),
  ];
  const report = await ok(bob.client.post('/api/reports', { userId: dave.id, reason: 'spam' }));
  const packs = await ok<{ id: string }[]>(alice.client.get('/api/profile/collections'));
  const friendships = (await ok<{ friendshipId: string }[]>(bob.client.get('/api/friends'))).map(
    (f) => f.friendshipId,
  );

  const people = [alice, bob, carol, dave, erin];
  return {
    alice,
    bob,
    carol,
    dave,
    erin,
    ids: {
      people: people.map((p) => p.id),
      pings: [
        ...pings.map((p: { id: string }) => p.id),
        ...group.pings.map((p: { id: string }) => p.id),
      ],
      groups: [group.groupId],
      prompts: [hug, defaults[1]!.id, alicePrompt.id, bobPrompt.id],
      reactions: reacted.reactions.map((r: { id: string }) => r.id),
      anchors: [aliceToBob.id, bobToCarol.id],
      moods: moods.map((x: { id: string }) => x.id),
      reports: [report.id],
      packs: packs.slice(0, 3).map((p) => p.id),
      friendships: [...friendships, daveToAlice.requestId, carolToDave.requestId],
    },
    names: [
      ...people.map((p) => p.inviteCode),
      ...people.map((p) => p.email),
      ...people.map((p) => `${p.name.toLowerCase()}_fuzz`),
      'https://push.example.test/sub/1',
    ],
  };
}

/** Every id of the world, one list. */
export function allIds(world: FuzzWorld): string[] {
  return Object.values(world.ids).flat();
}
