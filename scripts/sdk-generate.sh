#!/usr/bin/env bash
# Regenerates the generated part of the three SDKs from the API's OpenAPI document (issue 34, item 2):
#   sdk/openapi.json                           the document (node dist/src/cli/openapi.js)
#   sdk/typescript/src/generated/schema.ts     openapi-typescript (npm, pinned in package.json), run on the
#                                              SDK's operations only (scripts/sdk/ts-resources.mjs --document)
#   sdk/typescript/src/generated/resources.ts  scripts/sdk/ts-resources.mjs (sdk/operations.json's methods)
#   sdk/python/svc_assistant/_generated/       scripts/sdk/py-resources.py: models.py and params.py by
#                                              datamodel-code-generator (PyPI, pinned in
#                                              scripts/install-sdk-python.sh), resources.py by the script
#   sdk/go/types.gen.go, sdk/go/resources.gen.go  oapi-codegen (Go module proxy, pinned in
#                                              scripts/install-sdk-go.sh) + scripts/sdk/go-resources.mjs
#                                              (scripts/sdk/go-generate.sh)
# The hand-written layers (sdk/typescript/src/index.ts, sdk/python/svc_assistant/*.py, sdk/go/*.go but *.gen.go) are not touched.
# `--check` generates into a temporary directory and fails (exit 1, with the diff's file list) when the
# committed files differ: CI runs it, so the SDKs never drift from the service. Needs `npm run build` first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
CHECK=0
[ "${1:-}" = "--check" ] && CHECK=1
OUT="$ROOT/sdk"
if [ "$CHECK" = 1 ]; then
  OUT=$(mktemp -d)
  trap 'rm -rf "$OUT"' EXIT
  mkdir -p "$OUT/typescript/src/generated" "$OUT/python/svc_assistant"
fi
PY=$(bash "$ROOT/scripts/install-sdk-python.sh")
node dist/src/cli/openapi.js "$OUT/openapi.json"
TS_DOC=$(mktemp --suffix=.json)
node scripts/sdk/ts-resources.mjs "$OUT/openapi.json" sdk/operations.json \
  --resources "$OUT/typescript/src/generated/resources.ts" --document "$TS_DOC"
npx --no-install openapi-typescript "$TS_DOC" --redocly "$ROOT/sdk/redocly.yaml" \
  -o "$OUT/typescript/src/generated/schema.ts" >/dev/null 2>"$TS_DOC.log" || { cat "$TS_DOC.log" >&2; exit 1; }
rm -f "$TS_DOC" "$TS_DOC.log"
"$PY" scripts/sdk/py-resources.py "$OUT/openapi.json" sdk/operations.json "$OUT/python/svc_assistant/_generated" \
  >"$OUT/python-generator.log" 2>&1 || { cat "$OUT/python-generator.log" >&2; exit 1; }
rm -f "$OUT/python-generator.log"
bash "$ROOT/scripts/sdk/go-generate.sh" "$OUT/go" "$OUT/openapi.json"
if [ "$CHECK" = 1 ]; then
  status=0
  for f in openapi.json typescript/src/generated python/svc_assistant/_generated go/types.gen.go go/resources.gen.go; do
    if ! diff -r -q "$OUT/$f" "$ROOT/sdk/$f" >/dev/null 2>&1; then
      echo "sdk:check: sdk/$f differs from what the service's document generates; run npm run sdk:generate" >&2
      diff -r -q "$OUT/$f" "$ROOT/sdk/$f" >&2 || true
      status=1
    fi
  done
  [ "$status" = 0 ] && echo "sdk:check: the SDKs match the document" >&2
  exit "$status"
fi
echo "sdk:generate: sdk/openapi.json, sdk/typescript/src/generated/{schema,resources}.ts, sdk/python/svc_assistant/_generated/, sdk/go/*.gen.go" >&2
