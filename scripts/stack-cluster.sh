#!/usr/bin/env bash
# `npm run stack:cluster`: the service as a small production-like cluster on loopback, each part its own
# OS process (README "A cluster on one machine"):
#   PostgreSQL 15 (Debian's package, a private data directory and port), holding three databases:
#     temporal, temporal_visibility (schemas made by Temporal's SQL tool) and ferretdb;
#   Temporal server (built from the Go module proxy, scripts/stack-cluster-build.sh) as five processes:
#     frontend, history-1 and history-2 (sharing 16 shards), matching, internal worker; membership on
#     loopback through the database; the namespace and the service's search attributes registered by
#     the Temporal CLI, as an operator does;
#   FerretDB 1.24 on that PostgreSQL (its PostgreSQL backend);
#   two API and two worker processes of the service (dist/src/api/main.js, dist/src/worker/main.js);
#   HAProxy (Debian's package, installed with apt-get when missing) in front of the two APIs.
#
# Usage: stack-cluster.sh [up [--infra]|down|status|start NAME|kill NAME]
#   up          builds what is missing (cached), starts every part not running, registers the namespace
#               and search attributes, prints the addresses (the default)
#   up --infra  only PostgreSQL, the five Temporal processes (namespace and search attributes registered)
#               and FerretDB: no API, worker or HAProxy (what `npm run test:cluster` runs the suite on)
#   down        stops every part (SIGTERM, then SIGKILL after 15 s); the data stays
#   status      one line per part: running (pid) or down
#   kill NAME   SIGKILLs one part (pg, frontend, history-1, history-2, matching, temporal-worker, ferretdb,
#               haproxy, api-1, api-2, worker-1, worker-2): what the chaos bench does
#   start NAME  starts one part again (waits until it answers)
# Environment: CLUSTER_DIR (data, logs, pid files; default .data/cluster), CLUSTER_PORT_BASE (default
# 17000, at most 31000: PostgreSQL +432, frontend +233, FerretDB +17, HAProxy +80, APIs +81/+82, worker health +91/+92),
# TEMPORAL_NAMESPACE (default `default`), CLUSTER_DYNAMIC_CONFIG_EXTRA (YAML appended to Temporal's dynamic
# configuration, e.g. the test suite's lower continue-as-new suggestion), TEMPORAL_TASK_QUEUE, and everything the service reads
# (OPENAI_*, TWILIO_*, SECRETS_KEY: made once and kept in CLUSTER_DIR when unset, …) passed to its processes.
# The service is built first (`npm run build`) unless dist/ exists or CLUSTER_SKIP_BUILD is set.
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLUSTER_DIR="$(mkdir -p "${CLUSTER_DIR:-$ROOT/.data/cluster}" && cd "${CLUSTER_DIR:-$ROOT/.data/cluster}" && pwd)"
BASE="${CLUSTER_PORT_BASE:-17000}"
NAMESPACE="${TEMPORAL_NAMESPACE:-default}"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
PG_PORT=$((BASE + 432)) FRONTEND_PORT=$((BASE + 233)) FERRET_PORT=$((BASE + 17)) LB_PORT=$((BASE + 80))
RUN="$CLUSTER_DIR/run" LOGS="$CLUSTER_DIR/logs"
TEMPORAL_PARTS="frontend history-1 history-2 matching temporal-worker"
SERVICE_PARTS="api-1 api-2 worker-1 worker-2"
mkdir -p "$RUN" "$LOGS"
# Temporal keeps membership ports (gRPC port + 700) in a smallint column: they must stay below 32768.
[ "$BASE" -le 31000 ] || { echo "[stack:cluster] CLUSTER_PORT_BASE must be at most 31000" >&2; exit 2; }

log() { echo "[stack:cluster] $*" >&2; }
die() { log "$*"; exit 1; }

# Runs "$@" as the postgres user when we are root (PostgreSQL refuses to run as root).
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

port_open() { (: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Waits up to $2 s for port $1 to accept connections; $3 names the part (its log is shown on failure).
wait_port() {
  local i
  for ((i = 0; i < $2 * 5; i++)); do
    port_open "$1" && return 0
    [ -s "$RUN/$3.pid" ] && ! pid_of "$3" >/dev/null && break # it exited
    sleep 0.2
  done
  log "$3 does not answer on port $1; the end of $LOGS/$3.log:"; tail -c 1500 "$LOGS/$3.log" >&2 || true
  return 1
}

pid_of() { local f="$RUN/$1.pid"; [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && cat "$f"; }

# Starts "$@" detached (own session, outliving this script) as part $name, logging to $LOGS/$name.log.
spawn_part() {
  local name=$1; shift
  setsid "$@" >>"$LOGS/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN/$name.pid"
  disown $! # not a job of this script: `wait_all` waits for the starters only
}

binaries() {
  [ -n "${TEMPORAL_SERVER_BIN:-}" ] && return 0
  eval "$(bash "$ROOT/scripts/stack-cluster-build.sh")"
  eval "$(bash "$ROOT/scripts/build-infra.sh" temporal)"
}

# ---------------------------------------------------------------------------------------------- PostgreSQL
start_pg() {
  local data="$CLUSTER_DIR/pg"
  [ -x "$PG_BIN/pg_ctl" ] || die "PostgreSQL not found in $PG_BIN (apt-get install postgresql; or set PG_BIN)"
  if [ ! -s "$data/PG_VERSION" ]; then
    mkdir -p "$data"; [ "$(id -u)" = 0 ] && chown postgres: "$data"
    as_pg "$PG_BIN/initdb" -D "$data" -U postgres --auth=trust -E UTF8 >"$LOGS/pg-initdb.log" 2>&1 ||
      die "initdb failed (see $LOGS/pg-initdb.log)"
  fi
  [ "$(id -u)" = 0 ] && touch "$LOGS/pg.log" && chown postgres: "$LOGS/pg.log"
  # A postmaster SIGKILLed leaves backends that exit within a few seconds: a start refused meanwhile
  # ("pre-existing shared memory block is still in use") is tried again.
  local i
  for ((i = 0; i < 30; i++)); do
    if as_pg "$PG_BIN/pg_ctl" -D "$data" -l "$LOGS/pg.log" -w -t 30 start \
      -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $data -c max_connections=300 -c fsync=on" >/dev/null 2>&1; then
      head -n1 "$data/postmaster.pid" >"$RUN/pg.pid"
      return 0
    fi
    sleep 1
  done
  log "PostgreSQL does not start; last lines of $LOGS/pg.log:"; tail -n 20 "$LOGS/pg.log" >&2; return 1
}

psql_admin() { "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -qAt "$@"; }

# The roles and databases, and Temporal's schemas through its SQL tool (setup once, then versioned updates).
setup_databases() {
  psql_admin -d postgres -c "SELECT 1 FROM pg_roles WHERE rolname='temporal'" | grep -q 1 ||
    psql_admin -d postgres -c "CREATE ROLE temporal LOGIN PASSWORD 'temporal'; CREATE ROLE ferretdb LOGIN PASSWORD 'ferretdb'"
  psql_admin -d postgres -c "SELECT 1 FROM pg_database WHERE datname='ferretdb'" | grep -q 1 ||
    psql_admin -d postgres -c "CREATE DATABASE ferretdb OWNER ferretdb"
  local db dir sql=("$TEMPORAL_SQL_TOOL_BIN" --plugin postgres12 --endpoint 127.0.0.1 --port "$PG_PORT" --user temporal --password temporal)
  psql_admin -d postgres -c "ALTER ROLE temporal CREATEDB"
  for db in temporal temporal_visibility; do
    dir=$([ "$db" = temporal ] && echo temporal || echo visibility)
    if ! psql_admin -d postgres -c "SELECT 1 FROM pg_database WHERE datname='$db'" | grep -q 1; then
      "${sql[@]}" --database "$db" create-database >>"$LOGS/schema.log" 2>&1 || die "creating database $db failed (see $LOGS/schema.log)"
      "${sql[@]}" --database "$db" setup-schema -v 0.0 >>"$LOGS/schema.log" 2>&1 || die "setup-schema $db failed (see $LOGS/schema.log)"
    fi
    "${sql[@]}" --database "$db" update-schema -d "$TEMPORAL_SCHEMA_DIR/v12/$dir/versioned" >>"$LOGS/schema.log" 2>&1 ||
      die "update-schema $db failed (see $LOGS/schema.log)"
  done
}

# ------------------------------------------------------------------------------------------------ Temporal
# The gRPC port of each Temporal process (membership: +700).
temporal_port() {
  case $1 in
    frontend) echo $((BASE + 233)) ;; history-1) echo $((BASE + 234)) ;; history-2) echo $((BASE + 244)) ;;
    matching) echo $((BASE + 235)) ;; temporal-worker) echo $((BASE + 239)) ;;
  esac
}

# Writes the server configuration of part $1 (they differ only in the history host's ports).
write_temporal_config() {
  local part=$1 hport hist=history-1 store
  [ "$part" = history-2 ] && hist=history-2
  hport=$(temporal_port "$hist")
  store() {
    printf '    %s:\n      sql:\n        pluginName: postgres12\n        databaseName: %s\n' "$1" "$2"
    printf '        connectAddr: "127.0.0.1:%s"\n        connectProtocol: tcp\n        user: temporal\n' "$PG_PORT"
    printf '        password: temporal\n        maxConns: %s\n        maxIdleConns: %s\n        maxConnLifetime: 1h\n' "$3" "$3"
  }
  {
    echo "log: {stdout: true, level: warn}"
    echo "persistence:"
    echo "  defaultStore: default"
    echo "  visibilityStore: visibility"
    echo "  numHistoryShards: 16"
    echo "  datastores:"
    store default temporal 20
    store visibility temporal_visibility 5
    echo "global:"
    echo "  membership: {maxJoinDuration: 30s, broadcastAddress: 127.0.0.1}"
    echo "services:"
    local s p
    for s in frontend history matching worker; do
      case $s in
        frontend) p=$(temporal_port frontend) ;; history) p=$hport ;; matching) p=$(temporal_port matching) ;;
        worker) p=$(temporal_port temporal-worker) ;;
      esac
      echo "  $s:"
      echo "    rpc: {grpcPort: $p, membershipPort: $((p + 700)), bindOnLocalHost: true$([ $s = frontend ] && echo ", httpPort: $((BASE + 243))")}"
    done
    echo "clusterMetadata:"
    echo "  enableGlobalNamespace: false"
    echo "  failoverVersionIncrement: 10"
    echo "  masterClusterName: active"
    echo "  currentClusterName: active"
    echo "  clusterInformation:"
    echo "    active: {enabled: true, initialFailoverVersion: 1, rpcName: frontend, rpcAddress: \"127.0.0.1:$FRONTEND_PORT\"}"
    echo "dcRedirectionPolicy: {policy: noop}"
    echo "publicClient: {hostPort: \"127.0.0.1:$FRONTEND_PORT\"}"
    echo "dynamicConfigClient: {filepath: \"$CLUSTER_DIR/temporal/dynamicconfig.yaml\", pollInterval: 10s}"
  } >"$CLUSTER_DIR/temporal/$part.yaml"
}

# What the dev server of `npm start` turns on (src/dev/infra.ts), so that the service behaves the same.
write_dynamic_config() {
  cat >"$CLUSTER_DIR/temporal/dynamicconfig.yaml" <<'YAML'
system.enableActivityEagerExecution:
  - value: true
history.maxInFlightUpdates:
  - value: 100
system.enableEagerWorkflowStart:
  - value: true
frontend.enableUpdateWorkflowExecution:
  - value: true
frontend.enableUpdateWorkflowExecutionAsyncAccepted:
  - value: true
YAML
  [ -z "${CLUSTER_DYNAMIC_CONFIG_EXTRA:-}" ] || printf '%s\n' "$CLUSTER_DYNAMIC_CONFIG_EXTRA" >>"$CLUSTER_DIR/temporal/dynamicconfig.yaml"
}

start_temporal_part() {
  local part=$1 service=${1%-[0-9]}
  [ "$part" = temporal-worker ] && service=worker
  mkdir -p "$CLUSTER_DIR/temporal"
  [ -f "$CLUSTER_DIR/temporal/dynamicconfig.yaml" ] || write_dynamic_config
  write_temporal_config "$part"
  spawn_part "$part" "$TEMPORAL_SERVER_BIN" --config-file "$CLUSTER_DIR/temporal/$part.yaml" --allow-no-auth \
    start --service "$service"
  # The internal worker serves no gRPC: its membership port says it runs.
  wait_port $(($(temporal_port "$part") + $([ "$part" = temporal-worker ] && echo 700 || echo 0))) 120 "$part"
}

temporal_cli() { "$TEMPORAL_BIN" "$@" --address "127.0.0.1:$FRONTEND_PORT" --command-timeout 20s; }

# The namespace and the search attributes the service sets (src/shared/search-attributes.ts), as an
# operator registers them; the API and worker processes refuse to start without them.
register_namespace() {
  local i out attr
  for ((i = 0; i < 60; i++)); do
    out=$(temporal_cli operator namespace create --namespace "$NAMESPACE" --retention 72h 2>&1) && break
    grep -qi "already" <<<"$out" && break
    sleep 2
  done
  [ $i -lt 60 ] || die "registering namespace $NAMESPACE failed: $out"
  for attr in CallStatus:Keyword AgentId:Keyword OrgId:Keyword Livemode:Bool ConversationId:Keyword Channel:Keyword CampaignId:Keyword; do
    for ((i = 0; i < 30; i++)); do
      out=$(temporal_cli operator search-attribute create --namespace "$NAMESPACE" --name "${attr%%:*}" --type "${attr#*:}" 2>&1) && break
      grep -qi "already" <<<"$out" && break
      sleep 2
    done
    [ $i -lt 30 ] || die "registering search attribute ${attr%%:*} failed: $out"
  done
}

# ------------------------------------------------------------------------------- FerretDB, HAProxy, service
start_ferretdb() {
  mkdir -p "$CLUSTER_DIR/ferretdb"
  spawn_part ferretdb env DO_NOT_TRACK=1 "$FERRETDB_PG_BIN" --handler=postgresql \
    "--postgresql-url=postgres://ferretdb:ferretdb@127.0.0.1:$PG_PORT/ferretdb?sslmode=disable" \
    "--listen-addr=127.0.0.1:$FERRET_PORT" --telemetry=disable --debug-addr=- \
    "--state-dir=$CLUSTER_DIR/ferretdb" --log-level=warn
  wait_port "$FERRET_PORT" 60 ferretdb
}

start_haproxy() {
  if ! command -v haproxy >/dev/null; then
    log "HAProxy not found: installing Debian's package (apt-get install haproxy)"
    [ "$(id -u)" = 0 ] || die "HAProxy is missing and installing it needs root: apt-get install haproxy"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy >"$LOGS/apt-haproxy.log" 2>&1 ||
      die "apt-get install haproxy failed (see $LOGS/apt-haproxy.log)"
  fi
  # Round robin over the two APIs, each checked on GET /healthz every second (down after 2 failures); a
  # request whose connection fails is sent to the other API (retries + redispatch). No request is replayed
  # once sent: a POST that reached an API that then died is answered 502/503/504 and the client retries.
  cat >"$CLUSTER_DIR/haproxy.cfg" <<CFG
global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  retries 2
  option redispatch
  option httplog
  log stdout format raw local0 warning
frontend api
  bind 127.0.0.1:$LB_PORT
  default_backend apis
backend apis
  balance roundrobin
  option httpchk GET /healthz
  http-check expect status 200
  default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
  server api-1 127.0.0.1:$((BASE + 81)) check
  server api-2 127.0.0.1:$((BASE + 82)) check
CFG
  haproxy -c -q -f "$CLUSTER_DIR/haproxy.cfg" || die "haproxy.cfg is invalid"
  spawn_part haproxy haproxy -db -f "$CLUSTER_DIR/haproxy.cfg"
  wait_port "$LB_PORT" 20 haproxy
}

service_env() {
  [ -s "$CLUSTER_DIR/secrets-key" ] || (umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$CLUSTER_DIR/secrets-key")
  export MONGODB_URI="mongodb://127.0.0.1:$FERRET_PORT/svc?maxPoolSize=12"
  export TEMPORAL_ADDRESS="127.0.0.1:$FRONTEND_PORT" TEMPORAL_NAMESPACE="$NAMESPACE"
  export SECRETS_KEY="${SECRETS_KEY:-$(cat "$CLUSTER_DIR/secrets-key")}"
  export PUBLIC_BASE_URL="${PUBLIC_BASE_URL:-http://127.0.0.1:$LB_PORT}" DATA_DIR="${DATA_DIR:-$CLUSTER_DIR/service}"
  export LOG_LEVEL="${LOG_LEVEL:-info}"
}

start_service_part() {
  local part=$1 n=${1##*-} i
  service_env
  case $part in
    api-*)
      PORT=$((BASE + 80 + n)) spawn_part "$part" node "$ROOT/dist/src/api/main.js"
      wait_port $((BASE + 80 + n)) 120 "$part"
      ;;
    worker-*)
      METRICS_WORKER_PORT=$((BASE + 90 + n)) spawn_part "$part" node "$ROOT/dist/src/worker/main.js"
      for ((i = 0; i < 900; i++)); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$((BASE + 90 + n))/healthz" 2>/dev/null)" = 200 ] && return 0
        pid_of "$part" >/dev/null || { log "$part exited; last lines of $LOGS/$part.log:"; tail -n 20 "$LOGS/$part.log" >&2; return 1; }
        sleep 0.2
      done
      log "$part not running after 180 s (see $LOGS/$part.log)"; return 1
      ;;
  esac
}

start_part() {
  case $1 in
    pg) start_pg ;;
    frontend | history-1 | history-2 | matching | temporal-worker) start_temporal_part "$1" ;;
    ferretdb) start_ferretdb ;;
    haproxy) start_haproxy ;;
    api-[12] | worker-[12]) start_service_part "$1" ;;
    *) die "unknown part $1" ;;
  esac
}

ALL_PARTS="pg $TEMPORAL_PARTS ferretdb api-1 api-2 worker-1 worker-2 haproxy"

up() {
  local start=$SECONDS p infra=${1:-}
  [ -z "$infra" ] || [ "$infra" = --infra ] || die "unknown option of up: $infra (only --infra)"
  binaries
  if [ -z "$infra" ] && [ ! -f "$ROOT/dist/src/api/main.js" ] && [ -z "${CLUSTER_SKIP_BUILD:-}" ]; then
    log "building the service (npm run build)"; (cd "$ROOT" && npm run --silent build) >"$LOGS/build.log" 2>&1 || die "npm run build failed"
  fi
  [ "$(id -u)" != 0 ] || runuser -u postgres -- test -x "$CLUSTER_DIR" ||
    die "the postgres user cannot reach $CLUSTER_DIR: choose a CLUSTER_DIR whose parents it may enter"
  pid_of pg >/dev/null || start_pg
  setup_databases
  mkdir -p "$CLUSTER_DIR/temporal"; write_dynamic_config
  # One first: on a new database the first process writes the cluster's metadata, which several at once
  # would race on (a duplicate key fails the others' start).
  pid_of frontend >/dev/null || start_temporal_part frontend
  for p in ${TEMPORAL_PARTS#frontend }; do pid_of "$p" >/dev/null || start_temporal_part "$p" & done
  wait_all || die "a Temporal process did not start"
  register_namespace
  pid_of ferretdb >/dev/null || start_ferretdb
  if [ "$infra" = --infra ]; then
    log "up in $((SECONDS - start)) s (Temporal 127.0.0.1:$FRONTEND_PORT namespace $NAMESPACE; FerretDB mongodb://127.0.0.1:$FERRET_PORT)"
    return 0
  fi
  for p in $SERVICE_PARTS; do pid_of "$p" >/dev/null || start_service_part "$p" & done
  wait_all || die "an API or worker process did not start"
  pid_of haproxy >/dev/null || start_haproxy
  cat <<TXT
[stack:cluster] up in $((SECONDS - start)) s. Data and logs: $CLUSTER_DIR
  API (HAProxy over api-1 :$((BASE + 81)), api-2 :$((BASE + 82))): http://127.0.0.1:$LB_PORT
  Temporal frontend: 127.0.0.1:$FRONTEND_PORT (namespace $NAMESPACE; history-1, history-2, matching, worker)
  PostgreSQL: 127.0.0.1:$PG_PORT (databases temporal, temporal_visibility, ferretdb)
  FerretDB (PostgreSQL backend): mongodb://127.0.0.1:$FERRET_PORT/svc
  Organizations and keys: MONGODB_URI=mongodb://127.0.0.1:$FERRET_PORT/svc SECRETS_KEY=\$(cat $CLUSTER_DIR/secrets-key) node bin/svcctl.js orgs create --name Acme
  Stop: npm run stack:cluster -- down
TXT
}

# Waits for every background job; fails when one failed.
wait_all() { local ok=0 j; for j in $(jobs -p); do wait "$j" || ok=1; done; return $ok; }

down() {
  local p pid i
  for p in haproxy $SERVICE_PARTS ferretdb $TEMPORAL_PARTS; do
    pid=$(pid_of "$p") && kill -TERM "$pid" 2>/dev/null || true
  done
  for ((i = 0; i < 75; i++)); do
    local alive=0
    for p in haproxy $SERVICE_PARTS ferretdb $TEMPORAL_PARTS; do pid_of "$p" >/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.2
  done
  for p in haproxy $SERVICE_PARTS ferretdb $TEMPORAL_PARTS; do pid=$(pid_of "$p") && kill -KILL "$pid" 2>/dev/null || true; done
  [ -s "$CLUSTER_DIR/pg/postmaster.pid" ] && as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/pg" -m fast -w stop >/dev/null 2>&1 || true
  rm -f "$RUN"/*.pid
  log "stopped (data kept in $CLUSTER_DIR)"
}

status() {
  local p pid
  for p in $ALL_PARTS; do
    if pid=$(pid_of "$p"); then echo "$p running ($pid)"; else echo "$p down"; fi
  done
}

case "${1:-up}" in
  up) up "${2:-}" ;;
  down) down ;;
  status) status ;;
  kill)
    pid=$(pid_of "${2:?kill NAME}") || die "${2} is not running"
    kill -KILL "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    ;;
  start) binaries; start_part "${2:?start NAME}" ;;
  *) die "usage: stack-cluster.sh [up [--infra]|down|status|start NAME|kill NAME]" ;;
esac
