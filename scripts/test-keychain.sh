#!/usr/bin/env bash
# The keychain tests against a real Secret Service: a private D-Bus session with an unlocked
# gnome-keyring-daemon, as on a Linux desktop. The normal suite covers the file fallback.
set -euo pipefail
cd "$(dirname "$0")/.."
# A keyring of its own: one left in ~/.local/share/keyrings with another password stays locked.
XDG_DATA_HOME="$(mktemp -d)"
export XDG_DATA_HOME
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
dbus-run-session -- bash -c '
  echo -n test-keyring-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  npx vitest run test/config/keychain.test.ts
'
