/**
 * Who is signed in. The server is the authority (GET /api/session, which answers 200
 * `{ user: SelfUser | null }` to everyone, so a visitor's start logs no 401); Dexie keeps the last
 * answer so the app knows the person offline and starts without waiting for the network.
 */
import { SelfUser, SessionResponse } from '@pingme/shared';
import { ApiError, api, handleUnauthorized } from './api';
import { clearPersonalData, deleteMeta, getMeta, setMeta } from './db';
import { onSignedOutFlow } from './navigation';
import { useSession } from './stores';

/** How long a first start (nothing cached) waits for the server before treating it as offline. */
const FIRST_CHECK_TIMEOUT_MS = 5000;

/**
 * Runs once before the router starts, so guards see a settled session. The server is asked at
 * once, while the device database opens and the cached copy is read, and whichever decides first
 * wins: a cached person starts the app at once (the server's answer then confirms or ends the
 * session in the background); a server's 200 or 401 decides without waiting for IndexedDB; with
 * nothing cached the start waits for the server (at most 5 s), with no answer for the cache.
 */
export async function bootSession(): Promise<void> {
  const controller = new AbortController();
  const answer = askServer(controller.signal);
  const cached = readCachedUser();
  const first = await Promise.race([answer, cached.then((user) => ({ cached: user }))]);
  if ('cached' in first) {
    if (first.cached) {
      useSession.getState().setUser(first.cached, false);
      void answer.then(applyAnswer);
      return;
    }
    const timer = setTimeout(() => controller.abort(), FIRST_CHECK_TIMEOUT_MS);
    try {
      await applyAnswer(await answer);
    } finally {
      clearTimeout(timer);
    }
    return;
  }
  if ('unreachable' in first) {
    const user = await cached;
    if (user) {
      useSession.getState().setUser(user, false);
      return;
    }
  }
  await applyAnswer(first);
}

type ServerAnswer = { user: SelfUser } | { signedOut: true } | { unreachable: unknown };

async function askServer(signal?: AbortSignal): Promise<ServerAnswer> {
  try {
    // index.html preloads this same request; the fetch takes that answer (one request).
    const { user } = await api.get('/api/session', {
      schema: SessionResponse,
      on401: 'throw',
      signal,
    });
    return user ? { user } : { signedOut: true };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { signedOut: true };
    return { unreachable: err };
  }
}

/** A person: remember them. Nobody (or a 401): signed out, and forget the cached copy. No answer: keep what is known. */
async function applyAnswer(answer: ServerAnswer): Promise<SelfUser | null> {
  if ('user' in answer) {
    await rememberUser(answer.user);
    return answer.user;
  }
  if ('signedOut' in answer) {
    // A session in use ended on the server (expired, signed out everywhere, password changed):
    // the spec's 401 flow, whichever request noticed first, never a silent switch to the landing.
    // On the signed-out flow's own screens (a reset or verification link) the person stays.
    if (useSession.getState().status === 'signed-in' && !onSignedOutFlow(location.pathname)) {
      handleUnauthorized();
    }
    await forgetUser();
    return null;
  }
  const { status, user, setSignedOut } = useSession.getState();
  if (status === 'loading') setSignedOut();
  return user;
}

/**
 * Asks the server who this is. A person: remember them. Nobody: signed out (and forget the cached copy).
 * No answer: keep whatever is known (the cached person, else signed out).
 */
export async function refreshSession(signal?: AbortSignal): Promise<SelfUser | null> {
  return applyAnswer(await askServer(signal));
}

/** After sign-in, sign-up or a fresh GET /api/session. */
export async function rememberUser(user: SelfUser): Promise<void> {
  useSession.getState().setUser(user, true);
  try {
    await setMeta('currentUser', user);
  } catch (err) {
    console.warn('could not cache the signed-in user', err);
  }
}

async function forgetUser(): Promise<void> {
  useSession.getState().setSignedOut();
  try {
    await deleteMeta('currentUser');
  } catch (err) {
    console.warn('could not clear the cached user', err);
  }
}

async function readCachedUser(): Promise<SelfUser | null> {
  try {
    const stored = await getMeta('currentUser');
    const parsed = SelfUser.safeParse(stored);
    return parsed.success ? parsed.data : null;
  } catch (err) {
    console.warn('could not read the cached user', err);
    return null;
  }
}

/**
 * POST /api/logout, then forget this person's data on the device. Spec: on success or error go
 * to /. `goHome` runs before the session flips to signed-out, so the guards of the screen being
 * left do not mistake a deliberate sign-out for an expired session.
 */
export async function signOut(goHome: () => Promise<void>): Promise<void> {
  try {
    await api.post('/api/logout', undefined, { on401: 'throw' });
  } catch (err) {
    console.warn('sign-out call failed; signing out locally', err);
  }
  await goHome();
  useSession.getState().setSignedOut();
  try {
    await clearPersonalData();
  } catch (err) {
    console.warn('could not clear local data', err);
  }
}
