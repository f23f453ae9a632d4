/**
 * The /ws client (docs/sync.md, "Client", steps R1-R6): one socket per tab while signed in.
 * Identity comes from the session cookie; the authenticate frame is kept for compatibility.
 * Every frame is parsed with the shared `ServerMessage` schema; one that does not match is
 * dropped and counted (the sync details show the count).
 */
import { ServerMessage, type ClientMessage, type Ping, type SelfUser } from '@pingme/shared';
import { db } from '../db';
import { useConnectivity, useRealtime } from '../stores';
import { backoffDelay } from './backoff';

export interface RealtimeHooks {
  /** A poke, and every (re)connect: something may have changed. */
  onPoke(reason: 'poke' | 'reconnect'): void;
  /** Closed with 4401 (the session ended): answer whether to keep trying. */
  onSessionEnded(): Promise<boolean>;
}

/**
 * Heartbeat (issue 15, item 10): while live, a `ping` frame every HEARTBEAT_MS; a socket that
 * brings no frame within PONG_TIMEOUT_MS of it is dead (a server that died, a cable pulled with
 * no close on the wire), so the status says Offline within a few seconds instead of a minute.
 */
export const HEARTBEAT_MS = 5_000;
export const PONG_TIMEOUT_MS = 3_000;
/** A socket not live (authenticated) this long after it was opened is given up and retried. */
export const CONNECT_TIMEOUT_MS = 10_000;

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

/** R6. A frame as the shared schema reads it; undefined (counted) when it does not match. */
export function readFrame(data: unknown): ServerMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(frameText(data));
  } catch {
    json = undefined;
  }
  const parsed = ServerMessage.safeParse(json);
  if (parsed.success) return parsed.data;
  useRealtime.getState().noteUnreadable('frames');
  console.warn('ws: dropped a frame that does not match ServerMessage');
  return undefined;
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
  let beat: ReturnType<typeof setInterval> | undefined;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const { setConnected } = useRealtime.getState();
  const { setServerReachable } = useConnectivity.getState();

  const stopHeartbeat = () => {
    clearInterval(beat);
    clearTimeout(deadline);
    beat = undefined;
    deadline = undefined;
  };

  /** A live socket that stopped answering: drop it now and go the way of a closed one. */
  const declareDead = (ws: WebSocket) => {
    if (socket !== ws) return;
    stopHeartbeat();
    ws.onclose = null;
    ws.onmessage = null;
    ws.close();
    socket = null;
    setConnected(false);
    setServerReachable(false);
    schedule();
  };

  const startHeartbeat = (ws: WebSocket) => {
    stopHeartbeat();
    beat = setInterval(() => {
      if (socket !== ws || ws.readyState !== WebSocket.OPEN) return;
      const ping: ClientMessage = { type: 'ping' };
      ws.send(JSON.stringify(ping));
      deadline ??= setTimeout(() => declareDead(ws), PONG_TIMEOUT_MS);
    }, HEARTBEAT_MS);
  };

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
    // A handshake whose answer never comes (swallowed by the network) would wait for ever.
    clearTimeout(deadline);
    deadline = setTimeout(() => declareDead(ws), CONNECT_TIMEOUT_MS);
    // The server may send its JSON in binary frames too: read them as bytes, not Blobs.
    ws.binaryType = 'arraybuffer';
    // R1. Say who we are; the server checks it against the cookie.
    ws.onopen = () => {
      const hello: ClientMessage = { type: 'authenticate', userId: user.id };
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => {
      // Any frame says the socket is alive.
      clearTimeout(deadline);
      deadline = undefined;
      const message = readFrame(event.data);
      if (!message) return;
      switch (message.type) {
        case 'authenticated':
          // R2. Live: reset the backoff and catch up on what was missed while away.
          failures = 0;
          setConnected(true);
          setServerReachable(true);
          startHeartbeat(ws);
          hooks.onPoke('reconnect');
          break;
        case 'poke':
          hooks.onPoke('poke'); // R3
          break;
        case 'pong':
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
      if (socket !== ws) return;
      socket = null;
      stopHeartbeat();
      setConnected(false);
      if (closed) return;
      // A socket that closes without the server saying why (1006: the server died, the network
      // went) means the server cannot be reached until something answers again.
      if (event.code === 1006) setServerReachable(false);
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

  // The network is back ('online', or the server answering again after being unreachable):
  // reconnect now rather than when the backoff says.
  const onOnline = () => {
    if (!socket && !closed) {
      clearTimeout(timer);
      failures = 0;
      open();
    }
  };
  window.addEventListener('online', onOnline);
  const stopWatching = useConnectivity.subscribe((now, before) => {
    if (now.serverReachable && !before.serverReachable) onOnline();
  });
  open();

  return () => {
    closed = true;
    clearTimeout(timer);
    stopHeartbeat();
    window.removeEventListener('online', onOnline);
    stopWatching();
    socket?.close(1000, 'signed out');
    socket = null;
    setConnected(false);
  };
}
