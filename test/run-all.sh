#!/usr/bin/env bash
# The one gate: typecheck, lint, build, node tests under a real D-Bus session with an unlocked
# gnome-keyring (so keychain tests hit the real Secret Service), then browser tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== typecheck"
npx tsc -b
echo "== lint"
npx eslint --max-warnings 0 .
npx prettier --check . > /dev/null || { npx prettier --check .; exit 1; }
echo "== build"
npx electron-vite build > /dev/null
node src/cli/build-cli.mjs
node test/bundle-budget.mjs
echo "== node tests (vitest, real keychain)"
export LANEWAY_KEYRING_PASSWORD="${LANEWAY_KEYRING_PASSWORD:-laneway-test-keyring}"
# A fresh keyring folder per run: an old one with another password would stay locked.
export XDG_DATA_HOME="$(mktemp -d)"
dbus-run-session -- bash -c '
  printf %s "$LANEWAY_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets > /dev/null
  npx vitest run
'
echo "== browser tests (Playwright, Debian Chromium)"
npx playwright test
