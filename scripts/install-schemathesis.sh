#!/usr/bin/env bash
# Makes schemathesis (PyPI) available for the API fuzz run (npm run test:fuzz, issue 15), once per
# machine: a Python virtual environment under the same cache as the Go servers (DESIGN.md section 3),
#   $CACHE/venv-schemathesis-<version>/bin/schemathesis
# and prints that path. The version is pinned; `schemathesis --version` is checked. Concurrent runs wait
# for each other (flock). Needs python3 with venv and pip, and PyPI.
set -euo pipefail
VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
CACHE="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant}"
VENV="$CACHE/venv-schemathesis-$VERSION"
BIN="$VENV/bin/schemathesis"
mkdir -p "$CACHE"
exec 9>"$CACHE/.schemathesis.lock"
flock 9
if ! "$BIN" --version 2>/dev/null | grep -q "version $VERSION\$"; then
  echo "[install-schemathesis] installing schemathesis $VERSION into $VENV" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION" >&2
  "$BIN" --version | grep -q "version $VERSION\$"
fi
echo "$BIN"
