#!/usr/bin/env bash
# What a newcomer waits for (README "Two commands"): `npm install`, then `npm start` until GET /readyz
# answers 200, in a fresh clone with EMPTY npm, pip, Go and service caches, so every download and build a
# first run does is in the figures. The caches are new directories under a temporary folder (npm_config_cache,
# PIP_CACHE_DIR, GOMODCACHE, GOCACHE, GOPATH, SVC_CACHE_DIR; binaries on PATH ignored), so the machine's
# own caches are neither used nor touched. Prints one table row:
#   | date | load average before | npm install | npm start → /readyz 200 | Temporal CLI / TypeScript / FerretDB |
# and the CPU seconds of the whole run. Usage: bash bench/first-run.sh [REPOSITORY] (default: this checkout's
# committed HEAD). Needs the network to the npm registry, PyPI and the Go module proxy. Takes 2-5 minutes.
set -euo pipefail
SRC="${1:-$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)}"
W=$(mktemp -d "${TMPDIR:-/tmp}/svc-first-run.XXXXXX")
pid=""
cleanup() {
  [ -n "$pid" ] && kill -INT -- "-$pid" 2>/dev/null && sleep 5
  [ -n "$pid" ] && kill -KILL -- "-$pid" 2>/dev/null
  chmod -R u+w "$W" 2>/dev/null || true # Go's module cache is read-only
  rm -rf "$W"
}
trap cleanup EXIT
log() { echo "[first-run] $*" >&2; }

git clone -q "$SRC" "$W/repo"
export npm_config_cache="$W/npm-cache" PIP_CACHE_DIR="$W/pip-cache" GOMODCACHE="$W/gomod" GOCACHE="$W/gocache" \
  GOPATH="$W/gopath" SVC_CACHE_DIR="$W/svc-cache" SVC_IGNORE_PATH_BINARIES=1
load=$(cut -d' ' -f1-3 /proc/loadavg)
cpu0=$(awk '{print $2+$4}' /proc/stat 2>/dev/null | head -1)
cd "$W/repo"

log "npm install (empty npm cache)…"
t0=$(date +%s%3N)
npm install --no-audit --no-fund >"$W/install.log" 2>&1
t1=$(date +%s%3N)

read -r PORT TPORT UIPORT FPORT < <(node -e '
  const net = require("node:net");
  (async () => {
    const s = [];
    for (let i = 0; i < 4; i++) s.push(await new Promise((r) => { const x = net.createServer(); x.listen(0, "127.0.0.1", () => r(x)); }));
    console.log(s.map((x) => x.address().port).join(" "));
    s.forEach((x) => x.close());
  })();')
log "npm start (empty pip, Go and service caches)…"
env -u TEMPORAL_ADDRESS -u MONGODB_URI -u OPENAI_BASE_URL -u OPENAI_API_KEY PORT="$PORT" TEMPORAL_DEV_PORT="$TPORT" \
  TEMPORAL_UI_PORT="$UIPORT" FERRETDB_PORT="$FPORT" DATA_DIR="$W/data" setsid npm start >"$W/start.log" 2>&1 &
pid=$!
until curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; do
  kill -0 "$pid" 2>/dev/null || { tail -n 30 "$W/start.log" >&2; log "npm start exited"; exit 1; }
  [ $(($(date +%s%3N) - t1)) -gt 900000 ] && { tail -n 30 "$W/start.log" >&2; log "not ready in 15 minutes"; exit 1; }
  sleep 0.5
done
t2=$(date +%s%3N)
secs() { awk -v ms="$1" 'BEGIN { printf "%.0f s", ms / 1000 }'; }
# The seconds a step of the start log reports ("FerretDB v1.24.2 ready (84 s)", "compiled (3 s)"), else "?".
step() { grep -o "$1[^(]*(\([0-9]*\) s)" "$W/start.log" | grep -o '([0-9]* s)' | tr -d '()' | head -1 || true; }
temporal=$(step 'Temporal CLI .* ready')
ferret=$(step 'FerretDB .* ready')
ts=$(step 'compiled')
cpu1=$(awk '{print $2+$4}' /proc/stat 2>/dev/null | head -1)
grep -E "ready \(|compiled \(|Service ready" "$W/start.log" >&2 || true
echo "| $(date -u +%F) | $load | $(secs $((t1 - t0))) | $(secs $((t2 - t1))) | ${temporal:-?} / ${ts:-?} / ${ferret:-?} |"
echo "machine CPU seconds (user+system, all processes) during the run: $(((cpu1 - cpu0) / $(getconf CLK_TCK)))"
