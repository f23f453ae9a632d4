/**
 * The one way the app talks to the sync server's REST API (spec section 7): cookies included,
 * JSON in and out, answers parsed by the shared zod schemas. A non-success answer throws an
 * ApiError whose message is `${status}: ${bodyText || statusText}`; a 401 whose text says
 * 'Unauthorized' tells the person and sends them to sign in (spec section 8).
 */
import { DELAYS_MS, ErrorBody, type ErrorCode } from '@pingme/shared';
import type { z } from 'zod';
import { leaveToLogin } from './navigation';
import { toast, useConnectivity } from './stores';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly body: ErrorBody | undefined;

  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.body = parseErrorBody(bodyText);
  }

  /** The stable error code of the JSON error body, when the server sent one. */
  get code(): ErrorCode | undefined {
    return this.body?.code;
  }
}

/** The request never got an answer: offline, or the server is unreachable. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(cause?: unknown) {
    super('Network error. Please check your connection and try again.', { cause });
  }
}

/** The server answered 2xx with a body that does not match the contract. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
}

function parseErrorBody(text: string): ErrorBody | undefined {
  if (!text) return undefined;
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Spec section 8: any error of the form '401: ...Unauthorized'. */
export function isUnauthorizedError(err: unknown): boolean {
  return err instanceof Error && /^401: [\s\S]*Unauthorized/.test(err.message);
}

/** The sentence to show a person: the server's `error`, else the error's own message. */
export function errorMessage(err: unknown, fallback = 'Something went wrong. Please try again.') {
  if (err instanceof ApiError) return err.body?.error ?? (err.bodyText || fallback);
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

let leavingForLogin = false;

/**
 * Spec section 8: toast, then the sign-in page 500 ms later (once, however many calls fail).
 * Also run by session.ts when the server no longer knows a session the app was using.
 */
export function handleUnauthorized(): void {
  if (leavingForLogin) return;
  leavingForLogin = true;
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  leaveToLogin(currentPath(), DELAYS_MS.loginRedirect);
}

function currentPath(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  return window.location.pathname + window.location.search;
}

export interface RequestOptions<T> {
  /** JSON body; omitted for GET and for bodiless calls. */
  body?: unknown;
  /** A file sent as the body itself, with its own type (a photo upload); instead of `body`. */
  file?: Blob;
  /** The shared zod schema of the answer; without it the parsed JSON is returned as is. */
  schema?: z.ZodType<T>;
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** 'sign-in' (default): a 401 'Unauthorized' sends the person to sign in. 'throw': only throws. */
  on401?: 'sign-in' | 'throw';
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function request<T = unknown>(
  method: Method,
  path: string,
  opts: RequestOptions<T> = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.file) headers['Content-Type'] = opts.file.type || 'application/octet-stream';
  else if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;

  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'include',
      headers,
      body: opts.file ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
      signal: opts.signal,
    });
  } catch (err) {
    if (opts.signal?.aborted && !(err instanceof TypeError)) throw err;
    useConnectivity.getState().setServerReachable(false);
    throw new NetworkError(err);
  }
  useConnectivity.getState().setServerReachable(true);

  const text = await res.text();
  if (!res.ok) {
    const error = new ApiError(res.status, text, res.statusText);
    if (opts.on401 !== 'throw' && isUnauthorizedError(error)) handleUnauthorized();
    throw error;
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ContractError(
      `${method} ${path} answered ${res.status} with a body that is not JSON`,
    );
  }
  if (!opts.schema) return json as T;
  const parsed = opts.schema.safeParse(json);
  if (!parsed.success) {
    throw new ContractError(
      `${method} ${path} answered an unexpected shape: ${parsed.error.message}`,
    );
  }
  return parsed.data;
}

type Opts<T> = Omit<RequestOptions<T>, 'body' | 'file'>;

export const api = {
  get: <T = unknown>(path: string, opts?: Opts<T>) => request<T>('GET', path, opts),
  post: <T = unknown>(path: string, body?: unknown, opts?: Opts<T>) =>
    request<T>('POST', path, { ...opts, body: body ?? {} }),
  put: <T = unknown>(path: string, body?: unknown, opts?: Opts<T>) =>
    request<T>('PUT', path, { ...opts, body: body ?? {} }),
  patch: <T = unknown>(path: string, body?: unknown, opts?: Opts<T>) =>
    request<T>('PATCH', path, { ...opts, body: body ?? {} }),
  del: <T = unknown>(path: string, opts?: Opts<T>) => request<T>('DELETE', path, opts),
  /** PUT of a file as the body (the photo upload route). */
  upload: <T = unknown>(path: string, file: Blob, opts?: Opts<T>) =>
    request<T>('PUT', path, { ...opts, file }),
};
