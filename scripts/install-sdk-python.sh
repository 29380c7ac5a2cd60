#!/usr/bin/env bash
# Makes the Python SDK's tools available, once per machine (DESIGN.md section 3: cached outside the
# repository): a virtual environment under the project's cache,
#   $CACHE/venv-sdk-python-dmcg-<generator version>/bin/python
# holding the generator of sdk/python's models (datamodel-code-generator), the SDK's runtime dependencies
# (httpx, pydantic) and its packaging and checking tools (build, setuptools, mypy). Prints that python's
# path. Versions are pinned (the generator's output must be byte-for-byte the same on every machine for
# `npm run sdk:check`); concurrent runs wait for each other (flock). Needs python3 (>= 3.10) with venv and
# pip, and PyPI.
set -euo pipefail
GENERATOR_VERSION="${DATAMODEL_CODE_GENERATOR_VERSION:-0.89.0}"
PINS=(
  "datamodel-code-generator==$GENERATOR_VERSION" "pydantic==2.14.4" "inflect==7.6.0" "httpx==0.28.1"
  "typing_extensions==4.16.0" "mypy==2.4.1" "build==1.6.1" "setuptools==84.2.1" "wheel==0.48.0"
)
CACHE="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant}"
VENV="$CACHE/venv-sdk-python-dmcg-$GENERATOR_VERSION"
PY="$VENV/bin/python"
mkdir -p "$CACHE"
exec 9>"$CACHE/.sdk-python.lock"
flock 9
if ! [ -f "$VENV/.complete" ] || ! "$VENV/bin/datamodel-codegen" --version 2>/dev/null | grep -q "$GENERATOR_VERSION"; then
  echo "[install-sdk-python] installing datamodel-code-generator $GENERATOR_VERSION into $VENV" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  nice -n 19 "$VENV/bin/pip" install --quiet --disable-pip-version-check "${PINS[@]}" >&2
  "$VENV/bin/datamodel-codegen" --version | grep -q "$GENERATOR_VERSION"
  touch "$VENV/.complete"
fi
echo "$PY"