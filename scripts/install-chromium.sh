#!/usr/bin/env bash
# Prints the path of a headless-capable Chromium for the browser test (test/browser/), installing Debian's
# `chromium` package when there is none (the project's machines are Debian; Playwright's own browser
# downloads come from a vendor CDN that these machines cannot reach). CHROMIUM_PATH wins when set.
set -euo pipefail
if [[ -n "${CHROMIUM_PATH:-}" ]]; then
  [[ -x "$CHROMIUM_PATH" ]] || { echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable" >&2; exit 1; }
  echo "$CHROMIUM_PATH"
  exit 0
fi
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then
    command -v "$candidate"
    exit 0
  fi
done
if ! command -v apt-get >/dev/null 2>&1; then
  echo "no Chromium found and no apt-get to install one: install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi
SUDO=""
if [[ "$(id -u)" != "0" ]]; then SUDO="sudo -n"; fi
echo "installing Debian's chromium package (once per machine)…" >&2
$SUDO apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >&2
command -v chromium
