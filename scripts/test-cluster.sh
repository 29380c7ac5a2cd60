#!/usr/bin/env bash
# `npm run test:cluster`: the test suite's end-to-end flows against a Temporal cluster instead of the dev
# server (README "The test suite on the cluster"). Not in CI (CI stays on the dev server).
#   1. starts the Temporal + PostgreSQL + FerretDB part of scripts/stack-cluster.sh (`up --infra`: frontend,
#      two history hosts on 16 shards, matching, internal worker, SQL visibility; namespace `svc-test` and the
#      service's search attributes registered by `temporal operator`) in a fresh directory, so that no
#      workflow of an earlier run is left on the task queue;
#   2. runs mocha on the chosen test files (arguments: dist/test/... files; default: the list below) with
#      SVC_TEST_TEMPORAL_ADDRESS / SVC_TEST_TEMPORAL_NAMESPACE / SVC_TEST_MONGODB_URI, which make the harness
#      (test/support/harness.ts) use the cluster and its FerretDB instead of starting its own servers;
#   3. stops the cluster and removes its directory (TEST_CLUSTER_KEEP=1 keeps it, logs included).
# Environment: TEST_CLUSTER_PORT_BASE (default 23000), TEST_CLUSTER_DIR (default a new directory under
# /tmp), MOCHA_TIMEOUT (ms, default 120000). dist/ must be built (`npm run test:cluster` builds it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# The end-to-end flows: calls (simulated, inbound, campaign, scheduled), conversations, webhook delivery,
# tool calls, test suites, squads, replays, recordings, privacy (erasure, retention).
DEFAULT_FILES=(
  dist/test/integration/calls.test.js
  dist/test/integration/calls-inbound.test.js
  dist/test/integration/bulk-calls.test.js
  dist/test/integration/calls-scheduled.test.js
  dist/test/integration/conversations.test.js
  dist/test/integration/tool-calls.test.js
  dist/test/integration/webhooks.test.js
  dist/test/integration/test-suites.test.js
  dist/test/integration/squads.test.js
  dist/test/integration/replays.test.js
  dist/test/integration/recordings.test.js
  dist/test/integration/erasure.test.js
  dist/test/integration/retention.test.js
  dist/test/integration/search-attributes.test.js
)
FILES=("$@")
[ ${#FILES[@]} -gt 0 ] || FILES=("${DEFAULT_FILES[@]}")
for f in "${FILES[@]}"; do [ -f "$f" ] || { echo "[test:cluster] $f not found (npm run build?)" >&2; exit 2; }; done

BASE="${TEST_CLUSTER_PORT_BASE:-23000}"
NAMESPACE=svc-test
if [ -n "${TEST_CLUSTER_DIR:-}" ]; then DIR="$TEST_CLUSTER_DIR"; mkdir -p "$DIR"; else DIR="$(mktemp -d /tmp/svc-test-cluster.XXXXXX)"; fi
chmod 755 "$DIR" # PostgreSQL runs as the postgres user, which must enter it

cluster() {
  CLUSTER_DIR="$DIR" CLUSTER_PORT_BASE="$BASE" TEMPORAL_NAMESPACE="$NAMESPACE" \
    CLUSTER_DYNAMIC_CONFIG_EXTRA="$DYNAMIC_EXTRA" bash "$ROOT/scripts/stack-cluster.sh" "$@"
}
# What the harness gives its dev server on the command line (test/support/harness.ts), here in the
# cluster's dynamic configuration: a lower continue-as-new suggestion, so that long-call tests cross runs.
DYNAMIC_EXTRA='limit.historyCount.suggestContinueAsNew:
  - value: 1000'

cleanup() {
  local rc=$?
  cluster down || true
  if [ -z "${TEST_CLUSTER_KEEP:-}" ] && [ -z "${TEST_CLUSTER_DIR:-}" ]; then rm -rf "$DIR"; else echo "[test:cluster] kept $DIR" >&2; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$SECONDS
cluster up --infra
echo "[test:cluster] cluster up in $((SECONDS - start)) s; ${#FILES[@]} test files" >&2

rc=0
SVC_TEST_TEMPORAL_ADDRESS="127.0.0.1:$((BASE + 233))" SVC_TEST_TEMPORAL_NAMESPACE="$NAMESPACE" \
  SVC_TEST_MONGODB_URI="mongodb://127.0.0.1:$((BASE + 17))/svc-test" \
  npx mocha --no-config --require dist/test/support/hooks.js --timeout "${MOCHA_TIMEOUT:-120000}" --exit \
  "${FILES[@]}" || rc=$?
echo "[test:cluster] mocha exited $rc after $((SECONDS - start)) s" >&2
exit $rc
