import 'fake-indexeddb/auto';
import type { SelfUser } from '@pingme/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Fresh modules per test: the 401 flow runs once per page, as api.ts remembers. */
let db: typeof import('./db').db;
let getMeta: typeof import('./db').getMeta;
let bootSession: typeof import('./session').bootSession;
let refreshSession: typeof import('./session').refreshSession;
let useSession: typeof import('./stores').useSession;
let useToasts: typeof import('./stores').useToasts;
let useUi: typeof import('./stores').useUi;

const user: SelfUser = {
  id: '0190a7a2-7c1e-7b3a-9d2e-1f2a3b4c5d6e',
  email: 'ada@example.test',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  tagline: null,
  handle: null,
  bio: null,
  status: null,
  location: null,
  personalLink: null,
  profileVisibility: 'public',
  createdAt: '2025-01-01T00:00:00.000Z',
  onboardingCompleted: false,
  onboardingStep: null,
  isAdmin: false,
  emailVerified: false,
  hasPassword: true,
  rateLimitPerDay: 50,
  quietHoursStart: null,
  quietHoursEnd: null,
  inviteCode: 'abcdefghijkl',
};

const fetchMock = vi.fn<typeof fetch>();
const assign = vi.fn<(url: string | URL) => void>();

beforeEach(async () => {
  vi.resetModules();
  ({ db, getMeta } = await import('./db'));
  ({ bootSession, refreshSession } = await import('./session'));
  ({ useSession, useToasts, useUi } = await import('./stores'));
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  assign.mockReset();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
  await db.meta.clear();
  useSession.setState({ status: 'loading', user: null, confirmed: false });
});

afterEach(() => {
  db.close();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const answer200 = (body: SelfUser) => answer(200, { user: body });

/** Lets the background refresh (started without await when a cached user exists) finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('session', () => {
  it('remembers the person from GET /api/session in Dexie', async () => {
    fetchMock.mockResolvedValueOnce(answer200(user));
    await bootSession();
    expect(useSession.getState()).toMatchObject({ status: 'signed-in', confirmed: true });
    expect(await getMeta('currentUser')).toEqual(user);
  });

  it('knows who you are offline from the cached copy', async () => {
    await db.meta.put({ key: 'currentUser', value: user });
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await bootSession();
    await settle();
    expect(useSession.getState()).toMatchObject({ status: 'signed-in', confirmed: false });
    expect(useSession.getState().user?.firstName).toBe('Ada');
  });

  it('signs out and forgets the cached copy when the server says 401', async () => {
    await db.meta.put({ key: 'currentUser', value: user });
    fetchMock.mockResolvedValueOnce(answer(401, { error: 'Unauthorized', code: 'unauthorized' }));
    await bootSession();
    await settle();
    expect(useSession.getState().status).toBe('signed-out');
    expect(await getMeta('currentUser')).toBeUndefined();
  });

  it('a session in use that the server no longer knows: the spec’s toast, then sign-in, once', async () => {
    fetchMock.mockResolvedValueOnce(answer200(user));
    await bootSession();
    expect(useSession.getState().status).toBe('signed-in');
    // Expired meanwhile: two checks notice it (the socket's and the network's), one flow runs.
    fetchMock.mockImplementation(() => Promise.resolve(answer(200, { user: null })));
    await Promise.all([refreshSession(), refreshSession()]);
    expect(useSession.getState().status).toBe('signed-out');
    expect(await getMeta('currentUser')).toBeUndefined();
    expect(useToasts.getState().current).toMatchObject({
      title: 'Unauthorized',
      description: 'You are logged out. Logging in again...',
    });
    expect(useUi.getState().leavingTo).toBe('/api/login');
    // The Toaster draws it (navigation.ts counts the spec's 500 ms from then).
    useToasts.getState().markShown(useToasts.getState().current!.id);
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(assign).toHaveBeenCalledWith('/api/login');
  });

  it('on a reset or verification link, a stale copy’s end sends nobody away', async () => {
    await db.meta.put({ key: 'currentUser', value: user });
    window.history.pushState(null, '', '/reset-password?token=abc');
    try {
      let reply: (res: Response) => void = () => undefined;
      fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (reply = resolve)));
      await bootSession();
      // The cached copy came first: signed in, until the server's answer.
      expect(useSession.getState()).toMatchObject({ status: 'signed-in', confirmed: false });
      reply(answer(200, { user: null }));
      await settle();
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(useSession.getState().status).toBe('signed-out');
      expect(await getMeta('currentUser')).toBeUndefined();
      expect(useToasts.getState().current).toBeNull();
      expect(assign).not.toHaveBeenCalled();
    } finally {
      window.history.pushState(null, '', '/');
    }
  });

  it('a visitor stays on the landing page when the server says nobody: no toast, no sign-in', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { user: null }));
    await bootSession();
    await refreshSession();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(useSession.getState().status).toBe('signed-out');
    expect(useToasts.getState().current).toBeNull();
    expect(useUi.getState().leavingTo).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it('asks GET /api/session (the preloaded request) and treats { user: null } as signed out', async () => {
    await db.meta.put({ key: 'currentUser', value: user });
    fetchMock.mockResolvedValueOnce(answer(200, { user: null }));
    await bootSession();
    await settle();
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/session');
    expect(useSession.getState().status).toBe('signed-out');
    expect(await getMeta('currentUser')).toBeUndefined();
  });

  it('starts from the cached copy while the server is slow, then takes its answer', async () => {
    await db.meta.put({ key: 'currentUser', value: user });
    let answer: (res: Response) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    await bootSession();
    expect(useSession.getState()).toMatchObject({ status: 'signed-in', confirmed: false });
    answer(answer200({ ...user, firstName: 'Augusta' }));
    await settle();
    expect(useSession.getState()).toMatchObject({ status: 'signed-in', confirmed: true });
    expect(useSession.getState().user?.firstName).toBe('Augusta');
    expect((await getMeta('currentUser'))?.firstName).toBe('Augusta');
  });

  it('asks the server before the device database answers, and waits for it when nothing is cached', async () => {
    let answer: (res: Response) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    const booting = bootSession();
    // The request is out before any IndexedDB read could have finished.
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await settle();
    expect(useSession.getState().status).toBe('loading');
    answer(answer200(user));
    await booting;
    expect(useSession.getState()).toMatchObject({ status: 'signed-in', confirmed: true });
  });

  it('is signed out when nothing is cached and the server cannot be reached', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await bootSession();
    expect(useSession.getState().status).toBe('signed-out');
  });
});
