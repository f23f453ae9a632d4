/** What the /ws client does after its socket closes (realtime.ts, step R5), and its heartbeat. */
import type { SelfUser } from '@pingme/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnectivity, useRealtime } from '../stores';
import {
  CONNECT_TIMEOUT_MS,
  HEARTBEAT_MS,
  PONG_TIMEOUT_MS,
  afterClose,
  connectRealtime,
} from './realtime';

describe('after the /ws socket closes', () => {
  it('reconnects at once when the server says it is restarting (1012) or going away (1001)', () => {
    expect(afterClose(1012)).toBe('reconnect-now');
    expect(afterClose(1001)).toBe('reconnect-now');
  });

  it('asks about the session after 4401 and backs off after anything else', () => {
    expect(afterClose(4401)).toBe('session-ended');
    for (const code of [1000, 1006, 1008, 1009, 1011]) expect(afterClose(code)).toBe('backoff');
  });
});

/** A WebSocket that the test drives: it records what the client sends and answers on demand. */
class FakeSocket {
  static readonly OPEN = 1;
  static last: FakeSocket | undefined;
  readyState = 0;
  binaryType = 'blob';
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  /** The server accepts the socket and says who we are. */
  accept() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
    this.onmessage?.({ data: JSON.stringify({ type: 'authenticated', userId: 'u1' }) });
  }
}

describe('the /ws heartbeat', () => {
  const user = { id: 'u1' } as SelfUser;
  const hooks = { onPoke: () => {}, onSessionEnded: async () => false };

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
    useConnectivity.getState().setServerReachable(true);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a socket that does not answer a ping within the timeout is dropped: not live, server unreachable', () => {
    const stop = connectRealtime(user, hooks);
    const socket = FakeSocket.last!;
    socket.accept();
    expect(useRealtime.getState().connected).toBe(true);

    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(socket.sent.at(-1)).toBe(JSON.stringify({ type: 'ping' }));
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expect(socket.closed).toBe(true);
    expect(useRealtime.getState().connected).toBe(false);
    expect(useConnectivity.getState().serverReachable).toBe(false);
    stop();
  });

  it('a socket that answers stays live', () => {
    const stop = connectRealtime(user, hooks);
    const socket = FakeSocket.last!;
    socket.accept();
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(HEARTBEAT_MS);
      socket.onmessage?.({ data: JSON.stringify({ type: 'pong' }) });
    }
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expect(socket.closed).toBe(false);
    expect(useRealtime.getState().connected).toBe(true);
    expect(useConnectivity.getState().serverReachable).toBe(true);
    stop();
  });

  it('a socket closed without a reason (1006) says the server cannot be reached', () => {
    const stop = connectRealtime(user, hooks);
    const socket = FakeSocket.last!;
    socket.accept();
    socket.onclose?.({ code: 1006 });
    expect(useConnectivity.getState().serverReachable).toBe(false);
    stop();
  });

  it('a handshake that never completes is given up and tried again', () => {
    const stop = connectRealtime(user, hooks);
    const first = FakeSocket.last!;
    vi.advanceTimersByTime(CONNECT_TIMEOUT_MS);
    expect(first.closed).toBe(true);
    expect(useConnectivity.getState().serverReachable).toBe(false);
    // The reconnect backoff (at most 30 s) opens another socket.
    vi.advanceTimersByTime(30_000);
    expect(FakeSocket.last).not.toBe(first);
    FakeSocket.last!.accept();
    expect(useRealtime.getState().connected).toBe(true);
    expect(useConnectivity.getState().serverReachable).toBe(true);
    stop();
  });
});
