#!/usr/bin/env bash
# The one gate: typecheck, lint, build, node tests under a real D-Bus session with an unlocked
# gnome-keyring (so keychain tests hit the real Secret Service), then browser tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every temporary file of the run (the tests' own, and those of the services, tools and browsers
# they start) goes into one folder, removed when the run passes and kept for a look when it
# fails: runs had left some 150 folders and 120 MB each in /tmp.
RUN_TMP="$(mktemp -d -t laneway-tests-XXXXXX)"
# Others may pass through, as through /tmp: munged (user munge) checks every folder on its
# socket's path for the SLURM tests.
chmod 755 "$RUN_TMP"
export TMPDIR="$RUN_TMP"
finish() {
  local status=$?
  if [ "$status" -eq 0 ]; then rm -rf "$RUN_TMP"; else echo "(this run's temporary files are kept in $RUN_TMP)"; fi
}
trap finish EXIT

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
