/**
 * Resolves once the next frame has been painted (or after 100 ms, since a hidden page paints no
 * frames). A send dialog awaits it between its Dexie write and its own close and toast: the live
 * queries re-read the pings right after the write, and their render (the new ping card) then
 * reaches the screen first instead of waiting behind the dialog's closing frame
 * (docs/performance.md, Device: send to render).
 */
export const afterNextPaint = (): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
