/**
 * Every zustand store of the app, in one module (the lint config forbids importing zustand
 * elsewhere). Stores hold session and UI state only; domain data lives in Dexie.
 */
import { create } from 'zustand';
import { DELAYS_MS, type Ping, type SelfUser } from '@pingme/shared';

// ── Session ──────────────────────────────────────────────────────────────────────────────

export type SessionStatus = 'loading' | 'signed-in' | 'signed-out';

interface SessionState {
  status: SessionStatus;
  user: SelfUser | null;
  /** True once the server confirmed the session; false while only the Dexie copy is known. */
  confirmed: boolean;
  setUser(user: SelfUser, confirmed: boolean): void;
  setSignedOut(): void;
}

export const useSession = create<SessionState>()((set) => ({
  status: 'loading',
  user: null,
  confirmed: false,
  setUser: (user, confirmed) => set({ status: 'signed-in', user, confirmed }),
  setSignedOut: () => set({ status: 'signed-out', user: null, confirmed: true }),
}));

// ── Toasts (spec section 9: one at a time, 5000 ms by default) ───────────────────────────

export type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  durationMs?: number;
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

interface ToastState {
  current: ToastItem | null;
  /** The toast the Toaster has put on screen last (its viewport loads apart from the app). */
  shownId: number | null;
  show(toast: ToastInput): void;
  dismiss(): void;
  /** Called by the Toaster once a toast is in the document. */
  markShown(id: number): void;
}

let toastSeq = 0;
let removeTimer: ReturnType<typeof setTimeout> | undefined;

export const useToasts = create<ToastState>()((set, get) => ({
  current: null,
  shownId: null,
  show: (toast) => {
    clearTimeout(removeTimer);
    toastSeq += 1;
    set({ current: { ...toast, id: toastSeq, open: true } });
  },
  dismiss: () => {
    const current = get().current;
    if (!current) return;
    set({ current: { ...current, open: false } });
    const id = current.id;
    removeTimer = setTimeout(() => {
      if (get().current?.id === id) set({ current: null });
    }, DELAYS_MS.toastRemove);
  },
  markShown: (id) => {
    if (get().shownId !== id) set({ shownId: id });
  },
}));

/** Shows a toast, replacing the one on screen. */
export function toast(input: ToastInput): void {
  useToasts.getState().show(input);
}

/**
 * Resolves once the current toast is on screen (at once when there is none), or after `maxMs`
 * whatever happens: a toast queued before its viewport has loaded is drawn later, on a slow device
 * more than half a second later.
 */
export function toastOnScreen(maxMs: number): Promise<void> {
  const shown = (s: ToastState) => !s.current || s.shownId === s.current.id;
  if (shown(useToasts.getState())) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      unsubscribe();
      clearTimeout(timer);
      resolve();
    };
    const unsubscribe = useToasts.subscribe((s) => {
      if (shown(s)) done();
    });
    const timer = setTimeout(done, maxMs);
  });
}

// ── Connectivity ─────────────────────────────────────────────────────────────────────────

interface ConnectivityState {
  /** navigator.onLine and its events. */
  browserOnline: boolean;
  /** Whether the last call to the sync server got an answer (any status). */
  serverReachable: boolean;
  setBrowserOnline(online: boolean): void;
  setServerReachable(reachable: boolean): void;
}

export const useConnectivity = create<ConnectivityState>()((set, get) => ({
  // Node 21+ has a `navigator` without onLine: the landing prerendered at build time says Online.
  browserOnline: typeof navigator === 'undefined' || navigator.onLine !== false,
  serverReachable: true,
  setBrowserOnline: (browserOnline) => set({ browserOnline }),
  setServerReachable: (serverReachable) => {
    if (get().serverReachable !== serverReachable) set({ serverReachable });
  },
}));

export const selectOnline = (s: ConnectivityState) => s.browserOnline && s.serverReachable;

// ── Transient UI ─────────────────────────────────────────────────────────────────────────

interface UiState {
  /** A full-page navigation in progress (to /api/login, /api/auth/google): screens step aside. */
  leavingTo: string | null;
  /** Set when a new service worker waits; calling it activates the new version and reloads. */
  applyUpdate: (() => void) | null;
  /** The browser's offer to install the app (`beforeinstallprompt`), kept until it is used. */
  installPrompt: InstallPromptEvent | null;
  setLeavingTo(href: string | null): void;
  setApplyUpdate(apply: (() => void) | null): void;
  setInstallPrompt(event: InstallPromptEvent | null): void;
}

/** `beforeinstallprompt` (Chromium's, not in the DOM typings). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export const useUi = create<UiState>()((set) => ({
  leavingTo: null,
  applyUpdate: null,
  installPrompt: null,
  setLeavingTo: (leavingTo) => set({ leavingTo }),
  setApplyUpdate: (applyUpdate) => set({ applyUpdate }),
  setInstallPrompt: (installPrompt) => set({ installPrompt }),
}));

// ── Realtime (the sync engine and its /ws client write; screens read) ───────────────────

export interface NewPingEvent {
  ping: Ping;
  /** Date.now() when it arrived, so the same ping arriving twice still reads as one event. */
  receivedAt: number;
}

interface RealtimeState {
  /** The /ws socket is open and authenticated. */
  connected: boolean;
  /** The last `new_ping` frame (already written to Dexie); null until one arrives. */
  lastNewPing: NewPingEvent | null;
  /**
   * What came from the server and did not match its shared schema, since the tab opened: /ws
   * frames (dropped) and batch answers (left to the pull). The sync details show them.
   */
  unreadable: { frames: number; answers: number };
  /**
   * The last pull the sync host started got an answer that was not the changes (a server error,
   * an unreadable page, no answer in time), and none has succeeded since. Offline is not this:
   * connectivity says it.
   */
  pullFailed: boolean;
  setConnected(connected: boolean): void;
  setPullFailed(failed: boolean): void;
  announceNewPing(ping: Ping): void;
  noteUnreadable(kind: 'frames' | 'answers', count?: number): void;
}

export const useRealtime = create<RealtimeState>()((set, get) => ({
  connected: false,
  lastNewPing: null,
  setConnected: (connected) => {
    if (get().connected !== connected) set({ connected });
  },
  pullFailed: false,
  setPullFailed: (pullFailed) => {
    if (get().pullFailed !== pullFailed) set({ pullFailed });
  },
  announceNewPing: (ping) => set({ lastNewPing: { ping, receivedAt: Date.now() } }),
  unreadable: { frames: 0, answers: 0 },
  noteUnreadable: (kind, count = 1) =>
    set((s) => ({ unreadable: { ...s.unreadable, [kind]: s.unreadable[kind] + count } })),
}));
