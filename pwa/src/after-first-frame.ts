/**
 * Work that waits until the app's first frame is on screen and the page is idle: the service
 * worker's registration and the emoji font (main.tsx). The first frame is the root layout's first
 * paint (routes/__root.tsx), not the page's: a signed-in start paints an empty page while the
 * root's loader fetches its chunks, and an emoji font requested then (Home's header carries the
 * person's tagline, often with an emoji) would travel before the first contentful frame, sharing
 * a slow connection with the chunks that frame needs.
 */
const waiting: (() => void)[] = [];
let painted = false;

/**
 * The longest the work waits for that frame: a start whose root layout never paints (its loader
 * failed, an error screen instead) still registers its service worker.
 */
export const FIRST_FRAME_WAIT_MAX_MS = 5000;

function whenIdle(task: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 0);
}

/** Runs `task` once the app's first frame is on screen and the page is idle. */
export function afterFirstFrame(task: () => void): void {
  if (painted) whenIdle(task);
  else waiting.push(task);
}

/**
 * The root layout's first frame is on screen (called once it has been painted), or
 * FIRST_FRAME_WAIT_MAX_MS have passed since the start (main.tsx): the waiting work may run.
 */
export function firstFramePainted(): void {
  if (painted) return;
  painted = true;
  for (const task of waiting.splice(0)) whenIdle(task);
}
