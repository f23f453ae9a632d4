import { SelfUser } from '@pingme/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the API client and the stores for each test (the 401 handler runs once). */
async function load() {
  vi.resetModules();
  const apiModule = await import('./api');
  const stores = await import('./stores');
  return { ...apiModule, ...stores };
}

const fetchMock = vi.fn<typeof fetch>();
const assign = vi.fn<(url: string | URL) => void>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  assign.mockReset();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const json = (status: number, body: unknown, statusText = '') =>
  new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });

describe('api client: requests', () => {
  it('sends cookies, JSON and the Idempotency-Key', async () => {
    const { api } = await load();
    fetchMock.mockResolvedValueOnce(json(200, { ok: true }));
    await api.post('/api/things', { a: 1 }, { idempotencyKey: 'key-1' });
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/api/things');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"a":1}');
    expect(init?.headers).toMatchObject({
      'Content-Type': 'application/json',
      'Idempotency-Key': 'key-1',
    });
  });

  it('parses the answer with the shared schema and rejects a foreign shape', async () => {
    const { api, ContractError } = await load();
    fetchMock.mockResolvedValueOnce(json(200, { id: 'not a user' }));
    await expect(api.get('/api/user', { schema: SelfUser })).rejects.toBeInstanceOf(ContractError);
  });
});

describe('api client: errors (spec section 7)', () => {
  it('throws `${status}: ${bodyText}` and exposes the server sentence and code', async () => {
    const { api, ApiError, errorMessage } = await load();
    const body = { error: 'Invalid email or password', code: 'invalid_credentials' };
    fetchMock.mockResolvedValueOnce(json(401, body, 'Unauthorized'));
    const err = await api.post('/api/login', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toBe(`401: ${JSON.stringify(body)}`);
    expect((err as InstanceType<typeof ApiError>).status).toBe(401);
    expect((err as InstanceType<typeof ApiError>).code).toBe('invalid_credentials');
    expect(errorMessage(err)).toBe('Invalid email or password');
  });

  it('uses the status text when the body is empty', async () => {
    const { api } = await load();
    fetchMock.mockResolvedValueOnce(
      new Response('', { status: 503, statusText: 'Service Unavailable' }),
    );
    await expect(api.get('/api/thing')).rejects.toThrow(/^503: Service Unavailable$/);
  });

  it('turns a failed fetch into a NetworkError and marks the server unreachable', async () => {
    const { api, NetworkError, useConnectivity } = await load();
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api.get('/api/user')).rejects.toBeInstanceOf(NetworkError);
    expect(useConnectivity.getState().serverReachable).toBe(false);
    fetchMock.mockResolvedValueOnce(json(200, {}));
    await api.get('/api/user');
    expect(useConnectivity.getState().serverReachable).toBe(true);
  });
});

describe('api client: 401 Unauthorized (spec section 8)', () => {
  const unauthorized = () => json(401, { error: 'Unauthorized', code: 'unauthorized' });

  it('shows the toast, then goes to /api/login after 500 ms, once', async () => {
    vi.useFakeTimers();
    const { api, isUnauthorizedError, useToasts } = await load();
    fetchMock.mockResolvedValue(unauthorized());
    const first = await api.get('/api/friends').catch((e: unknown) => e);
    await api.get('/api/pings/recent').catch(() => undefined);

    expect(isUnauthorizedError(first)).toBe(true);
    expect(useToasts.getState().current).toMatchObject({
      title: 'Unauthorized',
      description: 'You are logged out. Logging in again...',
    });
    // The 500 ms count from when the Toaster has drawn the toast (navigation.ts).
    useToasts.getState().markShown(useToasts.getState().current!.id);
    await vi.advanceTimersByTimeAsync(499);
    expect(assign).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith('/api/login');
  });

  it("leaves a 401 alone when the caller handles it (on401: 'throw')", async () => {
    vi.useFakeTimers();
    const { api, useToasts, ApiError } = await load();
    fetchMock.mockResolvedValueOnce(unauthorized());
    await expect(api.get('/api/user', { on401: 'throw' })).rejects.toBeInstanceOf(ApiError);
    vi.runAllTimers();
    expect(useToasts.getState().current).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it('does not treat a wrong password (401 without "Unauthorized") as a lost session', async () => {
    vi.useFakeTimers();
    const { api, useToasts } = await load();
    fetchMock.mockResolvedValueOnce(
      json(401, { error: 'Invalid email or password', code: 'invalid_credentials' }),
    );
    await api.post('/api/login', {}).catch(() => undefined);
    vi.runAllTimers();
    expect(useToasts.getState().current).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });
});
