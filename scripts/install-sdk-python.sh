#!/usr/bin/env bash
# Makes the Python SDK's tools available, once per machine (DESIGN.md section 3: cached outside the
# repository): a virtual environment under the project's cache,
#   $CACHE/venv-sdk-python-<generator version>/bin/python
# holding the generator of sdk/python (openapi-python-client, which also brings ruff for its output) and
# the SDK's runtime dependencies (httpx, attrs, python-dateutil). Prints that python's path. Versions are
# pinned; concurrent runs wait for each other (flock). Needs python3 (>= 3.9) with venv and pip, and PyPI.
set -euo pipefail
GENERATOR_VERSION="${OPENAPI_PYTHON_CLIENT_VERSION:-0.29.1}"
CACHE="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant}"
VENV="$CACHE/venv-sdk-python-$GENERATOR_VERSION"
PY="$VENV/bin/python"
mkdir -p "$CACHE"
exec 9>"$CACHE/.sdk-python.lock"
flock 9
if ! "$VENV/bin/openapi-python-client" --version 2>/dev/null | grep -q "$GENERATOR_VERSION"; then
  echo "[install-sdk-python] installing openapi-python-client $GENERATOR_VERSION into $VENV" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    "openapi-python-client==$GENERATOR_VERSION" "httpx>=0.23,<0.29" "attrs>=22.2" "python-dateutil>=2.8" >&2
  "$VENV/bin/openapi-python-client" --version | grep -q "$GENERATOR_VERSION"
fi
echo "$PY"
