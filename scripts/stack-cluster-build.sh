#!/usr/bin/env bash
# Builds, once per machine, the pieces `npm run stack:cluster` runs that build-infra.sh does not give:
#  - the Temporal server (go.temporal.io/server/cmd/server) and its SQL schema tool
#    (go.temporal.io/server/cmd/tools/sql), at a pinned release, from the Go module proxy;
#  - FerretDB with its PostgreSQL backend (build-infra.sh builds it without, for the SQLite one).
# Cached under $CACHE/bin, keyed by version (and FerretDB's patch set), like build-infra.sh; concurrent
# runs wait for each other (flock). Prints shell assignments:
#   TEMPORAL_SERVER_BIN=…  TEMPORAL_SQL_TOOL_BIN=…  TEMPORAL_SCHEMA_DIR=…  FERRETDB_PG_BIN=…
# The server's go.mod names Go 1.26.10, newer than this machine's 1.26.8: the go command fetches the
# approved toolchain go1.27.3 from the module proxy (GOTOOLCHAIN below; override with the environment).
# The builds run at nice 10 (they take several minutes on two cores); logs are under $CACHE/logs.
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true

TEMPORAL_SERVER_VERSION="${TEMPORAL_SERVER_VERSION:-v1.30.9}"
FERRETDB_VERSION="${FERRETDB_VERSION:-v1.24.2}"
CACHE="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant}"
export GOTOOLCHAIN="${STACK_GOTOOLCHAIN:-go1.27.3}"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
FERRETDB_PATCHES="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ferretdb-patches"

log() { echo "[stack-build] $*" >&2; }

with_lock() {
  local name=$1; shift
  mkdir -p "$CACHE/locks"
  ( flock 9; "$@" ) 9>"$CACHE/locks/$name.lock"
}

go_source() { # prints the module cache directory of module $1 at version $2
  go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'
}

build_temporal_server() {
  local dir=$1 logf="$CACHE/logs/temporal-server-build.log" start=$SECONDS src
  [ -x "$dir/temporal-server" ] && return 0
  command -v go >/dev/null || { log "Go is required to build the Temporal server"; return 1; }
  log "Temporal server $TEMPORAL_SERVER_VERSION + SQL tool: building from the Go module proxy (once per machine, 10-20 min)"
  mkdir -p "$dir.tmp"
  if ! CGO_ENABLED=0 GOBIN="$dir.tmp" nice -n 10 go install -trimpath -ldflags '-s -w' \
    "go.temporal.io/server/cmd/server@$TEMPORAL_SERVER_VERSION" \
    "go.temporal.io/server/cmd/tools/sql@$TEMPORAL_SERVER_VERSION" >"$logf" 2>&1; then
    log "building the Temporal server failed; last lines of $logf:"; tail -n 20 "$logf" >&2
    rm -rf "$dir.tmp"; return 1
  fi
  src=$(go_source go.temporal.io/server "$TEMPORAL_SERVER_VERSION" 2>>"$logf")
  mv "$dir.tmp/server" "$dir.tmp/temporal-server"
  mv "$dir.tmp/sql" "$dir.tmp/temporal-sql-tool"
  cp -r "$src/schema/postgresql" "$dir.tmp/schema-postgresql"; chmod -R u+w "$dir.tmp/schema-postgresql"
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
  log "Temporal server $TEMPORAL_SERVER_VERSION ready ($((SECONDS - start)) s)"
}

ferretdb_patch_hash() {
  (cd "$FERRETDB_PATCHES" && cat -- *.patch 2>/dev/null; ls -- *.patch 2>/dev/null) | sha256sum | cut -c1-8
}

build_ferretdb_pg() {
  local dir=$1 logf="$CACHE/logs/ferretdb-pg-build.log" start=$SECONDS src work p
  [ -x "$dir/ferretdb" ] && return 0
  log "FerretDB $FERRETDB_VERSION with its PostgreSQL backend: building (once per machine, 1-3 min)"
  src=$(GOTOOLCHAIN=auto go_source github.com/FerretDB/FerretDB "$FERRETDB_VERSION" 2>>"$logf")
  [ -d "$src" ] || { log "go mod download gave no source directory for FerretDB (see $logf)"; return 1; }
  work=$(mktemp -d)
  cp -r "$src/." "$work/"; chmod -R u+w "$work"
  echo "$FERRETDB_VERSION" >"$work/build/version/version.txt"
  for p in "$FERRETDB_PATCHES"/*.patch; do
    [ -e "$p" ] || continue
    patch -d "$work" -p1 --forward --batch --quiet <"$p" >>"$logf" 2>&1 || { rm -rf "$work"; log "patch $(basename "$p") failed"; return 1; }
  done
  mkdir -p "$dir.tmp"
  if ! (cd "$work" && CGO_ENABLED=0 GOTOOLCHAIN=auto nice -n 10 go build -trimpath -ldflags '-s -w' \
    -o "$dir.tmp/ferretdb" ./cmd/ferretdb) >>"$logf" 2>&1; then
    rm -rf "$work" "$dir.tmp"; log "building FerretDB failed; last lines of $logf:"; tail -n 20 "$logf" >&2; return 1
  fi
  rm -rf "$work" "$dir"; mv "$dir.tmp" "$dir"
  log "FerretDB $FERRETDB_VERSION (PostgreSQL backend) ready ($((SECONDS - start)) s)"
}

mkdir -p "$CACHE/logs" "$CACHE/bin"
tdir="$CACHE/bin/temporal-server-$TEMPORAL_SERVER_VERSION"
fdir="$CACHE/bin/ferretdb-$FERRETDB_VERSION-p$(ferretdb_patch_hash)-pg"
# Both at once (STACK_BUILD_ONLY=temporal|ferretdb: one of them).
pids=()
if [ "${STACK_BUILD_ONLY:-temporal}" = temporal ] && [ ! -x "$tdir/temporal-server" ]; then
  with_lock "temporal-server" build_temporal_server "$tdir" & pids+=($!)
fi
if [ "${STACK_BUILD_ONLY:-ferretdb}" = ferretdb ] && [ ! -x "$fdir/ferretdb" ]; then
  with_lock "ferretdb-pg" build_ferretdb_pg "$fdir" & pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p" || exit 1; done
echo "TEMPORAL_SERVER_BIN=$tdir/temporal-server"
echo "TEMPORAL_SQL_TOOL_BIN=$tdir/temporal-sql-tool"
echo "TEMPORAL_SCHEMA_DIR=$tdir/schema-postgresql"
echo "FERRETDB_PG_BIN=$fdir/ferretdb"
