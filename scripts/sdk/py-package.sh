#!/usr/bin/env bash
# The Python SDK as a user gets it: builds sdk/python's wheel (`python -m build`) from a clean copy outside
# the repository and installs it into a virtual environment of its own, also outside the repository,
#   $CACHE/venv-sdk-python-sample-<key>/bin/python
# with mypy, to type-check and run sdk/python/examples against a service. The environment is made once per
# set of dependencies (<key>: a hash of the SDK's declared dependencies and the mypy pin; they come from the
# wheel's own metadata, so an undeclared dependency fails there); each run reinstalls the freshly built
# wheel in it (no dependency resolution, a few seconds). Prints that python's path. Concurrent runs wait
# for each other (flock).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
MYPY_PIN="mypy==2.4.1"
TOOLS=$(bash "$ROOT/scripts/install-sdk-python.sh")
CACHE="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant}"
KEY=$( (grep -E '^(requires-python|dependencies)' "$ROOT/sdk/python/pyproject.toml"; echo "$MYPY_PIN") | sha256sum | cut -c1-12)
VENV="$CACHE/venv-sdk-python-sample-$KEY"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/pkg"
cp "$ROOT/sdk/python/pyproject.toml" "$ROOT/sdk/python/README.md" "$WORK/pkg/"
cp -r "$ROOT/sdk/python/svc_assistant" "$WORK/pkg/"
find "$WORK/pkg" -name __pycache__ -prune -exec rm -rf {} +
nice -n 19 "$TOOLS" -m build --wheel --no-isolation --outdir "$WORK/dist" "$WORK/pkg" >"$WORK/build.log" 2>&1 ||
  { cat "$WORK/build.log" >&2; exit 1; }
WHEEL=$(ls "$WORK"/dist/*.whl)
exec 9>"$CACHE/.sdk-python-sample.lock"
flock 9
if ! [ -f "$VENV/.complete" ]; then
  echo "[py-package] creating $VENV (the SDK's dependencies and $MYPY_PIN)" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  nice -n 19 "$VENV/bin/pip" install --quiet --disable-pip-version-check "$WHEEL" "$MYPY_PIN" >&2
  touch "$VENV/.complete"
else
  nice -n 19 "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps --no-index --force-reinstall "$WHEEL" >&2
fi
echo "$VENV/bin/python"
