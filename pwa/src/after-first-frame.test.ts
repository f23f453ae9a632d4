import { describe, expect, it, vi } from 'vitest';

describe('work after the first frame', () => {
  it("waits for the root layout's first paint, then runs each task once, when the page is idle", async () => {
    vi.resetModules();
    const { afterFirstFrame, firstFramePainted } = await import('./after-first-frame');
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (task: () => void) => idle.push(task));
    const ran: string[] = [];
    afterFirstFrame(() => ran.push('service worker'));
    afterFirstFrame(() => ran.push('emoji font'));
    // The page's own first frame (an empty one while the chunks load) is not the app's.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle).toHaveLength(0);
    firstFramePainted();
    expect(ran).toEqual([]);
    for (const task of idle.splice(0)) task();
    expect(ran).toEqual(['service worker', 'emoji font']);
    // A second paint runs nothing again; a task asked for later waits only for an idle moment.
    firstFramePainted();
    expect(idle).toHaveLength(0);
    afterFirstFrame(() => ran.push('later'));
    for (const task of idle.splice(0)) task();
    expect(ran).toEqual(['service worker', 'emoji font', 'later']);
    vi.unstubAllGlobals();
  });
});
