#!/usr/bin/env bash
# `npm run smoke:lts` (CI, .ci/run): `npm start` under the maintained Node.js LTS of scripts/node-lts.sh,
# whatever Node the machine ships. It must get ready, answer requests, and stop cleanly on Ctrl-C:
#   1. npm start (compile, embedded Temporal dev server and FerretDB, worker, API) with the LTS's node and
#      npm first on PATH, on free ports and a fresh DATA_DIR, in its own process group (as in a terminal);
#   2. waits for "Service ready" (SMOKE_TIMEOUT_S, default 420 s: the compile on a busy machine), then
#      checks GET /readyz 200, GET /v1/agents with the seeded demo key (the demo agent listed), a
#      simulated call placed and completed, the TypeScript SDK's flow (test/sdk/lts-flow.ts) run by the
#      LTS's node, and `svc_build_info` on /metrics naming the LTS's version;
#   3. SIGINT to the process group (Ctrl-C), then expects within 60 s the service's clean stop (its last
#      line `stopped`, written once the API, the worker and the embedded servers have stopped, before it
#      exits 0), npm's exit (130: npm reports the Ctrl-C it got itself, as in a terminal) and the ports free.
# The output of npm start is kept in $DATA_DIR/npm-start.log and printed when a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(bash scripts/node-lts.sh)" # NODE_LTS_BIN=…
LTS_DIR=$(dirname "$NODE_LTS_BIN")
WANT=$("$NODE_LTS_BIN" --version)
TIMEOUT=${SMOKE_TIMEOUT_S:-420}

log() { echo "[smoke:lts] $*" >&2; }

# Four free loopback ports (API, Temporal frontend, Temporal UI, FerretDB), from the machine's node.
read -r PORT TPORT UIPORT FPORT < <(node -e '
  const net = require("node:net");
  (async () => {
    const servers = [];
    for (let i = 0; i < 4; i++)
      servers.push(await new Promise((r) => { const s = net.createServer(); s.listen(0, "127.0.0.1", () => r(s)); }));
    console.log(servers.map((s) => s.address().port).join(" "));
    servers.forEach((s) => s.close());
  })();')
DATA_DIR=$(mktemp -d "${TMPDIR:-/tmp}/svc-smoke-lts.XXXXXX")
OUT="$DATA_DIR/npm-start.log"
pid=""

fail() {
  log "FAILED: $*"
  log "last lines of npm start's output ($OUT):"
  tail -n 40 "$OUT" >&2 || true
  [ -n "$pid" ] && kill -KILL -- "-$pid" 2>/dev/null
  exit 1
}

log "npm start under node $WANT (API :$PORT, Temporal :$TPORT, FerretDB :$FPORT, DATA_DIR $DATA_DIR)"
# Only what the embedded defaults need: no outside Temporal, database or model.
env -u TEMPORAL_ADDRESS -u MONGODB_URI -u OPENAI_BASE_URL -u OPENAI_API_KEY -u METRICS_TOKEN \
  PATH="$LTS_DIR:$PATH" PORT="$PORT" TEMPORAL_DEV_PORT="$TPORT" TEMPORAL_UI_PORT="$UIPORT" \
  FERRETDB_PORT="$FPORT" DATA_DIR="$DATA_DIR" \
  setsid npm start >"$OUT" 2>&1 &
pid=$! # setsid: the group npm start leads (the terminal's foreground group under Ctrl-C)

start=$SECONDS
until grep -qs 'Service ready on' "$OUT"; do
  kill -0 "$pid" 2>/dev/null || fail "npm start exited before it was ready"
  [ $((SECONDS - start)) -ge "$TIMEOUT" ] && fail "not ready after $TIMEOUT s"
  sleep 1
done
log "ready after $((SECONDS - start)) s"

base="http://127.0.0.1:$PORT"
key=$(node -p 'require(process.argv[1]).secret_key' "$DATA_DIR/demo-keys.json")
auth=(-H "Authorization: Bearer $key")
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] || fail "GET /readyz is not 200"
agents=$(curl -sf "${auth[@]}" "$base/v1/agents") || fail "GET /v1/agents failed"
agent=$(node -p 'JSON.parse(process.argv[1]).data[0].id' "$agents")
# The number npm start's printed curl calls: one inside its calling hours now (src/dev/demo-number.ts;
# simulated calls pass the dial gate, so a call at night at the callee's local time would be held).
to=$(grep -o '"to":"+[0-9]*"' "$OUT" | head -1 | cut -d'"' -f4)
[ -n "$to" ] || fail "npm start printed no demo call"
call=$(curl -sf "${auth[@]}" -H 'Content-Type: application/json' "$base/v1/calls" \
  -d "{\"to\":\"$to\",\"agent_id\":\"$agent\"}") || fail "POST /v1/calls failed"
call_id=$(node -p 'JSON.parse(process.argv[1]).id' "$call")
status=""
for _ in $(seq 1 120); do
  status=$(node -p 'JSON.parse(process.argv[1]).status' "$(curl -sf "${auth[@]}" "$base/v1/calls/$call_id")")
  [ "$status" = completed ] && break
  sleep 1
done
[ "$status" = completed ] || fail "call $call_id is '$status' after 120 s, not completed"
log "simulated call $call_id completed"
# The TypeScript SDK's flow under the LTS's node (test/sdk/lts-flow.ts, compiled by npm start's build).
flow=$("$NODE_LTS_BIN" dist/test/sdk/lts-flow.js "$base" "$key" "$to" 2>>"$OUT") || fail "the SDK flow failed under node $WANT"
log "SDK flow under node $WANT: $flow"
# Read whole first: `curl | grep -q` under pipefail fails when grep quits early and curl gets SIGPIPE.
metrics=$(curl -sf "$base/metrics") || fail "GET /metrics failed"
grep -q "^svc_build_info{.*node_version=\"$WANT\"" <<<"$metrics" ||
  fail "/metrics has no svc_build_info with node_version=\"$WANT\""
log "/metrics: svc_build_info says node $WANT"

kill -INT -- "-$pid"
stopped=""
for _ in $(seq 1 60); do
  if ! kill -0 "$pid" 2>/dev/null; then stopped=1; break; fi
  sleep 1
done
[ -n "$stopped" ] || fail "still running 60 s after Ctrl-C"
code=0
wait "$pid" || code=$?
[ "$code" = 0 ] || [ "$code" = 130 ] || fail "npm start exited with status $code after Ctrl-C"
tail -n 1 "$OUT" | grep -q ' info stopped$' || fail "the service did not stop cleanly (no final 'stopped' line)"
for p in "$PORT" "$TPORT" "$FPORT"; do
  node -e 'const s=require("node:net").connect(+process.argv[1],"127.0.0.1");s.on("connect",()=>process.exit(1));s.on("error",()=>process.exit(0))' "$p" ||
    fail "port $p still answers after npm start stopped"
done
pid=""
log "stopped cleanly (npm status $code); node $WANT: OK"
rm -rf "$DATA_DIR"
