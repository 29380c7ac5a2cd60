#!/usr/bin/env bash
# `npm start`: transpiles the service's TypeScript (scripts/build-start.mjs: src/ only, no type check, ~2 s)
# while the embedded servers are prepared (scripts/build-infra.sh: instant once cached; a first run
# downloads the Temporal CLI and builds FerretDB, in parallel), then runs the service in the foreground
# (dist/src/dev/start.js). Ctrl-C stops everything. `npm start -- --traces` also builds and starts Jaeger.
set -euo pipefail
cd "$(dirname "$0")/.."
export SVC_STARTED_AT_MS="${SVC_STARTED_AT_MS:-$(date +%s%3N 2>/dev/null || true)}" # "ready N s after start"

infra_pid=""
if [ -z "${TEMPORAL_ADDRESS:-}" ] || [ -z "${MONGODB_URI:-}" ]; then
  bash scripts/build-infra.sh all >/dev/null &
  infra_pid=$!
fi
# `npm start -- --traces`: Jaeger (the tracing backend) is built meanwhile too, once per machine.
jaeger_pid=""
for arg in "$@"; do
  if [ "$arg" = "--traces" ]; then bash scripts/build-infra.sh jaeger >/dev/null & jaeger_pid=$!; fi
done
start=$SECONDS
echo "[start] compiling TypeScript…" >&2
# FerretDB's compile is the long pole of a first run: ours yields the CPU to it.
if ! nice -n 10 node scripts/build-start.mjs; then
  [ -n "$infra_pid" ] && kill "$infra_pid" 2>/dev/null
  exit 1
fi
echo "[start] compiled ($((SECONDS - start)) s)" >&2
if [ -n "$infra_pid" ] && ! wait "$infra_pid"; then
  echo "[start] preparing the embedded servers failed (see above)" >&2
  exit 1
fi
if [ -n "$jaeger_pid" ] && ! wait "$jaeger_pid"; then
  echo "[start] building Jaeger for --traces failed (see above)" >&2
  exit 1
fi
exec node dist/src/dev/start.js "$@"
