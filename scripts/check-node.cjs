// Stops `npm start` and `npm test` at once, with one sentence, on a Node.js older than 22.
// Plain old JavaScript on purpose: it has to run, and say so, on the old Node it refuses.
'use strict';

/** The sentence for a Node that is too old, or null when `version` (e.g. '20.20.2') will do. */
function problem(version, command) {
  var major = Number(String(version).split('.')[0]);
  if (major >= 22) return null;
  return (
    'PingMe needs Node.js 22 or 24 (LTS); this is Node ' +
    version +
    '. Install Node 24 from https://nodejs.org (or your package manager), or run the same ' +
    'command through scripts/with-node.sh, which fetches Node 24 from the npm registry: ' +
    'scripts/with-node.sh 24 npm ' +
    (command || 'start')
  );
}

module.exports = { problem: problem };

if (require.main === module) {
  var message = problem(process.versions.node, process.env.npm_lifecycle_event);
  if (message) {
    console.error(message);
    process.exit(1);
  }
}
