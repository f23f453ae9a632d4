// Compiles the sync server for `npm start` (and production): src/main.ts and everything it
// imports from this workspace and from `@pingme/shared` (TypeScript source, no build of its own)
// into one ES module, dist/main.js, which plain `node` runs. Packages from node_modules stay
// imports (they are JavaScript already; native better-sqlite3 could not be bundled anyway).
//
//   node scripts/build.mjs                 # → sync-server/dist/main.js (+ .map)
//   node scripts/build.mjs --outdir DIR    # elsewhere under sync-server (tests)
//
// Why a bundler and not tsc: the sources import each other without file extensions
// (`moduleResolution: Bundler`), which Node's ES module loader refuses; tsc keeps them as written.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

const outdirFlag = process.argv.indexOf('--outdir');
const outdir =
  outdirFlag > 0 ? path.resolve(process.argv[outdirFlag + 1] ?? '') : path.join(root, 'dist');

// Every package import stays an import (resolved by Node from node_modules at run time), except
// the workspace's own `@pingme/shared`, which is TypeScript and is compiled in.
const packagesStayExternal = {
  name: 'packages-stay-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path === SHARED || args.path.startsWith(`${SHARED}/`) ? undefined : { external: true },
    );
  },
};
const SHARED = '@pingme/shared';

await build({
  entryPoints: [path.join(root, 'src', 'main.ts')],
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  plugins: [packagesStayExternal],
  logLevel: 'warning',
});
