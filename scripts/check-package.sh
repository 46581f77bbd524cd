#!/usr/bin/env bash
# Proves the npm package works on its own: pack it, install it globally into an empty prefix,
# and run the tool from there, away from this checkout and its node_modules.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tarball=$(npm pack --silent --pack-destination "$work" 2>/dev/null | tail -1)
size=$(stat -c %s "$work/$tarball")
echo "== $tarball: $((size / 1024)) kB"
[ "$size" -lt $((1536 * 1024)) ] || { echo "the package is over 1.5 MB"; exit 1; }
if tar -tzf "$work/$tarball" | grep -E '^package/(src|test|bench|scripts)/|\.ts$' | grep -v '\.d\.ts$'; then
  echo "the package holds sources or tests (listed above)"; exit 1
fi

npm install --global --prefix "$work/prefix" --no-audit --no-fund --loglevel=error "$work/$tarball"
cd "$work"
export STORE_ADMIN_CONFIG_DIR="$work/config" PATH="$work/prefix/bin:$PATH"
echo "== store-admin --version: $(store-admin --version)"
first=$(store-admin --sandbox exports types --query 'types[0].code')
[ "$first" = '"order_list"' ] || { echo "unexpected: $first"; exit 1; }
echo "== store-admin --sandbox exports types: ok"
help=$(store-admin --help)
case "$help" in *"USAGE"*"store-admin <command>"*) echo "== store-admin --help: ok" ;; *) echo "unexpected help"; exit 1 ;; esac
