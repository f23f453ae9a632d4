// Prepares and drops many better-sqlite3 statements and lets the garbage collector destroy them,
// both when forced (`gc()`, needs `node --expose-gc`) and when it runs by itself from the event
// loop between callbacks, as it does in the server. Exit code 0 and "ok <count>" on stdout mean the
// driver survived. Plain CommonJS, so it runs on any Node without a loader; driver-gc.test.ts
// explains why it exists.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Database = require('better-sqlite3');

if (typeof global.gc !== 'function') {
  console.error('run with --expose-gc');
  process.exit(2);
}
const rounds = Number(process.argv[2] || 200);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pingme-gc-'));
const db = new Database(path.join(dir, 'gc.sqlite'));
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function main() {
  let prepared = 0;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < 50; i++) {
      // A new SQL text each time: every statement is a new object, garbage at once.
      db.prepare(`INSERT INTO t (v) VALUES (? || '${round}-${i}')`).run('x');
      db.prepare(`SELECT count(*) AS n FROM t WHERE v <> '${round}-${i}'`).get();
      prepared += 2;
    }
    await nextTurn();
    if (round % 2 === 0) {
      global.gc();
    } else {
      // Enough short-lived objects for a collection to start on its own.
      let junk = [];
      for (let k = 0; k < 20_000; k++) junk.push({ k, s: `junk-${k}` });
      junk = null;
    }
  }
  db.close();
  await nextTurn();
  global.gc();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`ok ${prepared}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
