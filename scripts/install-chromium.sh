#!/usr/bin/env bash
# Prints the path of a headless-capable Chromium for the browser test (test/browser/), installing Debian's
# `chromium` package when there is none (the project's machines are Debian; Playwright's own browser
# downloads come from a vendor CDN that these machines cannot reach). CHROMIUM_PATH wins when set. Callers
# running at the same time install it once (a lock, below).
set -euo pipefail
if [[ -n "${CHROMIUM_PATH:-}" ]]; then
  [[ -x "$CHROMIUM_PATH" ]] || { echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable" >&2; exit 1; }
  echo "$CHROMIUM_PATH"
  exit 0
fi
found() {
  local candidate
  for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}
found && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "no Chromium found and no apt-get to install one: install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi
# The test shards (scripts/test-shards.mjs) start their browser tests side by side: on a new machine both
# would run apt-get at once, and the second would fail on dpkg's lock. One installs; the others wait for it
# on this lock (at most 10 minutes) and then find its Chromium.
LOCK_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant"
mkdir -p "$LOCK_DIR"
exec 9>"$LOCK_DIR/install-chromium.lock"
flock -w 600 9 || { echo "another install of Chromium has held $LOCK_DIR/install-chromium.lock for 10 minutes" >&2; exit 1; }
found && exit 0
SUDO=""
if [[ "$(id -u)" != "0" ]]; then SUDO="sudo -n"; fi
echo "installing Debian's chromium package (once per machine)…" >&2
$SUDO apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >&2
command -v chromium
