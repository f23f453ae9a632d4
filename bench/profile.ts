/**
 * Summarises a V8 CPU profile (node --cpu-prof, as `npm run bench -- --profile` writes for the
 * server child): the functions with the most self time, and the files (packages) they live in.
 *
 *   npx tsx bench/profile.ts bench/results/profiles/<stamp> [top=30]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [target, topArg] = process.argv.slice(2);
if (!target) {
  console.error('usage: tsx bench/profile.ts <profile file or folder> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(target, f))
  : [target];

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const fnTotals = new Map<string, number>();
  const fileTotals = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const f = byId.get(id)!.callFrame;
    const where = shortUrl(f.url);
    const name = `${f.functionName || '(anonymous)'}  ${where}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    fnTotals.set(name, (fnTotals.get(name) ?? 0) + us);
    const group = packageOf(f.url) || f.functionName || '(native)';
    fileTotals.set(group, (fileTotals.get(group) ?? 0) + us);
  }
  // Inclusive time: every function on the sampled stack, once per sample. Async functions only
  // count until their first await (V8 stacks end at the microtask), so this is a lower bound.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      if (!f.url.includes('/sync-server/src/') && !f.url.includes('/shared/src/')) continue;
      const key = `${f.functionName || '(anonymous)'}  ${shortUrl(f.url)}:${f.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const pct = (us: number) => ((100 * us) / total).toFixed(1).padStart(5) + ' %';
  console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled`);
  console.log('\nself time by function:');
  for (const [name, us] of [...fnTotals].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${pct(us)}  ${name}`);
  }
  console.log("\ninclusive time of the server's own functions (synchronous part):");
  for (const [name, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${pct(us)}  ${name}`);
  }
  console.log('\nself time by package or source folder:');
  for (const [name, us] of [...fileTotals].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`${pct(us)}  ${name}`);
  }
}

function shortUrl(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length);
  const s = url.indexOf('/sync-server/');
  if (s >= 0) return url.slice(s + 1);
  return url.replace(/^file:\/\//, '');
}

function packageOf(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) {
    const rest = url.slice(i + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const m = /\/(sync-server\/src\/[^/]+|shared\/src)\//.exec(url);
  if (m) return m[1]!;
  if (url.startsWith('node:')) return 'node internals';
  return '';
}
