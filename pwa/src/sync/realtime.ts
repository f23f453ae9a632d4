/**
 * The /ws client (docs/sync.md, "Client", steps R1-R5): one socket per tab while signed in.
 * Identity comes from the session cookie; the authenticate frame is kept for compatibility.
 */
import type { Ping, SelfUser, ServerMessage } from '@pingme/shared';
import { db } from '../db';
import { useRealtime } from '../stores';
import { backoffDelay } from './backoff';

export interface RealtimeHooks {
  /** A poke, and every (re)connect: something may have changed. */
  onPoke(reason: 'poke' | 'reconnect'): void;
  /** Closed with 4401 (the session ended): answer whether to keep trying. */
  onSessionEnded(): Promise<boolean>;
}

/** Reconnect delays: 1 s doubling to 30 s, with jitter. */
const RECONNECT_CAP_MS = 30_000;
/** Close code of a socket whose session has ended (sign-out, password change). */
export const WS_SESSION_ENDED = 4401;
/** Close codes of a server that is stopping or restarting (1001 Going Away, 1012 Service Restart). */
export const WS_SERVER_RESTARTING = new Set([1001, 1012]);

/**
 * What a closed socket leads to: the session check (4401), a prompt reconnect with the backoff
 * started over (a server restarting: it, or another behind the same address, takes the socket
 * again within a second, so earlier failures say nothing), or the usual backoff.
 */
export function afterClose(code: number): 'session-ended' | 'reconnect-now' | 'backoff' {
  if (code === WS_SESSION_ENDED) return 'session-ended';
  if (WS_SERVER_RESTARTING.has(code)) return 'reconnect-now';
  return 'backoff';
}

export function wsUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

/** R4. A new ping goes into Dexie at once (the pull brings the same row again later). */
export async function receiveNewPing(ping: Ping): Promise<void> {
  await db.transaction('rw', db.pings, async () => {
    if (!(await db.pings.get(ping.id))) await db.pings.put(ping);
  });
  useRealtime.getState().announceNewPing(ping);
}

/** A frame's text, whether it came as a text frame or as a binary one (UTF-8 JSON). */
export function frameText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    return new TextDecoder().decode(data);
  }
  return String(data);
}

export function connectRealtime(user: SelfUser, hooks: RealtimeHooks): () => void {
  let socket: WebSocket | null = null;
  let closed = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const { setConnected } = useRealtime.getState();

  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    failures++;
    timer = setTimeout(open, backoffDelay(failures, Math.random, 1000, RECONNECT_CAP_MS));
  };

  function open() {
    if (closed) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(wsUrl());
    } catch {
      schedule();
      return;
    }
    socket = ws;
    // The server may send its JSON in binary frames too: read them as bytes, not Blobs.
    ws.binaryType = 'arraybuffer';
    // R1. Say who we are; the server checks it against the cookie.
    ws.onopen = () => ws.send(JSON.stringify({ type: 'authenticate', userId: user.id }));
    ws.onmessage = (event) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(frameText(event.data)) as ServerMessage;
      } catch {
        return;
      }
      switch (message.type) {
        case 'authenticated':
          // R2. Live: reset the backoff and catch up on what was missed while away.
          failures = 0;
          setConnected(true);
          hooks.onPoke('reconnect');
          break;
        case 'poke':
          hooks.onPoke('poke'); // R3
          break;
        case 'new_ping':
          void receiveNewPing(message.ping).catch((err) =>
            console.warn('could not store the new ping', err),
          );
          break;
        case 'error':
          console.warn('ws:', message.error);
          break;
      }
    };
    ws.onclose = (event) => {
      if (socket === ws) socket = null;
      setConnected(false);
      if (closed) return;
      // R5. Reconnect with backoff; after 4401 only while the session still holds; after a
      // server restart at once (the first step of the backoff: half a second to a second, with
      // jitter so thousands of devices do not all come back in the same instant).
      const next = afterClose(event.code);
      if (next === 'session-ended') {
        void hooks.onSessionEnded().then((keep) => (keep ? schedule() : undefined));
      } else {
        if (next === 'reconnect-now') failures = 0;
        schedule();
      }
    };
  }

  const onOnline = () => {
    if (!socket && !closed) {
      clearTimeout(timer);
      failures = 0;
      open();
    }
  };
  window.addEventListener('online', onOnline);
  open();

  return () => {
    closed = true;
    clearTimeout(timer);
    window.removeEventListener('online', onOnline);
    socket?.close(1000, 'signed out');
    socket = null;
    setConnected(false);
  };
}
