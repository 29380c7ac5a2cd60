#!/usr/bin/env bash
# Makes the Temporal CLI (dev server + Web UI) and FerretDB available, built from the Go module proxy
# once per machine and cached outside the repository (DESIGN.md section 3). Prints, as shell
# assignments, the paths of the two executables:
#   TEMPORAL_BIN=/root/.cache/svc-assistant/bin/temporal-v1.5.1/temporal
#   FERRETDB_BIN=/root/.cache/svc-assistant/bin/ferretdb-v1.24.2/ferretdb
# A binary already on PATH (`temporal`, `ferretdb`) is preferred. Build logs go to stderr.
# Needs Go >= 1.25 (or an older Go with GOTOOLCHAIN=auto, which fetches one from the proxy).
set -euo pipefail

TEMPORAL_VERSION="${TEMPORAL_CLI_VERSION:-v1.5.1}"
FERRETDB_VERSION="${FERRETDB_VERSION:-v1.24.2}"
CACHE="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant}"
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

log() { echo "[build-infra] $*" >&2; }

need_go() {
  command -v go >/dev/null 2>&1 || { log "Go is required to build $1 (https://go.dev/doc/install)"; exit 1; }
}

temporal_bin() {
  if [ -z "${SVC_IGNORE_PATH_BINARIES:-}" ] && command -v temporal >/dev/null 2>&1; then command -v temporal; return; fi
  local dir="$CACHE/bin/temporal-$TEMPORAL_VERSION"
  if [ ! -x "$dir/temporal" ]; then
    need_go "the Temporal CLI"
    log "building the Temporal CLI $TEMPORAL_VERSION from the Go module proxy (once per machine, a few minutes)"
    mkdir -p "$dir.tmp"
    CGO_ENABLED=0 GOBIN="$dir.tmp" go install \
      -ldflags "-X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_VERSION#v}" \
      "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_VERSION" >&2
    rm -rf "$dir"; mv "$dir.tmp" "$dir"
  fi
  echo "$dir/temporal"
}

ferretdb_bin() {
  if [ -z "${SVC_IGNORE_PATH_BINARIES:-}" ] && command -v ferretdb >/dev/null 2>&1; then command -v ferretdb; return; fi
  local dir="$CACHE/bin/ferretdb-$FERRETDB_VERSION"
  if [ ! -x "$dir/ferretdb" ]; then
    need_go "FerretDB"
    log "building FerretDB $FERRETDB_VERSION from the Go module proxy (once per machine, a few minutes)"
    # `go install` of ./cmd/ferretdb panics at start: build/version/version.txt is generated, not in the
    # module zip. Build from a writable copy of the module source with that file written.
    local src
    src=$(go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
    [ -d "$src" ] || { log "go mod download gave no source directory for FerretDB"; exit 1; }
    local work; work=$(mktemp -d)
    cp -r "$src/." "$work/"; chmod -R u+w "$work"
    echo "$FERRETDB_VERSION" > "$work/build/version/version.txt"
    mkdir -p "$dir.tmp"
    (cd "$work" && CGO_ENABLED=0 go build -trimpath -o "$dir.tmp/ferretdb" ./cmd/ferretdb) >&2
    rm -rf "$work" "$dir"; mv "$dir.tmp" "$dir"
  fi
  echo "$dir/ferretdb"
}

what="${1:-all}"
case "$what" in
  temporal) echo "TEMPORAL_BIN=$(temporal_bin)" ;;
  ferretdb) echo "FERRETDB_BIN=$(ferretdb_bin)" ;;
  all) echo "TEMPORAL_BIN=$(temporal_bin)"; echo "FERRETDB_BIN=$(ferretdb_bin)" ;;
  *) log "usage: build-infra.sh [temporal|ferretdb|all]"; exit 2 ;;
esac
