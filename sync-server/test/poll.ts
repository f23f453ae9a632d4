/** Polls `check` every 10 ms until it holds; fails after `ms` (tests of things that settle later). */
export async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`still not so after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
