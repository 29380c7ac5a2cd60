#!/usr/bin/env bash
# Makes the Go SDK's type generator available, once per machine (DESIGN.md section 3: cached outside the
# repository): oapi-codegen, built with `go install` from the Go module proxy at a pinned version into
#   $CACHE/bin/oapi-codegen-<version>/oapi-codegen
# and prints that path. Concurrent runs wait for each other (flock). Needs Go >= 1.24 (or an older Go with
# GOTOOLCHAIN=auto) and the Go module proxy; the build log is $CACHE/logs/oapi-codegen-build.log.
set -euo pipefail
VERSION="${OAPI_CODEGEN_VERSION:-v2.8.2}"
CACHE="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant}"
DIR="$CACHE/bin/oapi-codegen-$VERSION"
BIN="$DIR/oapi-codegen"
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
mkdir -p "$CACHE/locks" "$CACHE/logs"
exec 9>"$CACHE/locks/oapi-codegen.lock"
flock 9
if ! "$BIN" --version 2>/dev/null | grep -qx "$VERSION"; then
  command -v go >/dev/null 2>&1 || { echo "[install-sdk-go] Go is required (https://go.dev/doc/install)" >&2; exit 1; }
  echo "[install-sdk-go] building oapi-codegen $VERSION into $DIR" >&2
  rm -rf "$DIR.tmp"
  if ! CGO_ENABLED=0 GOBIN="$DIR.tmp" nice -n 19 go install \
    "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@$VERSION" >"$CACHE/logs/oapi-codegen-build.log" 2>&1; then
    echo "[install-sdk-go] go install failed; last lines of $CACHE/logs/oapi-codegen-build.log:" >&2
    tail -n 20 "$CACHE/logs/oapi-codegen-build.log" >&2
    exit 1
  fi
  rm -rf "$DIR"
  mv "$DIR.tmp" "$DIR"
  "$BIN" --version | grep -qx "$VERSION"
fi
echo "$BIN"
