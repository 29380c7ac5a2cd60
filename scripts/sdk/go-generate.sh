#!/usr/bin/env bash
# Generates the Go SDK's generated files into the directory $1 (sdk/go, or a temporary one for
# `sdk-generate.sh --check`), from sdk/openapi.json and sdk/operations.json:
#   types.gen.go      oapi-codegen (pinned, built by scripts/install-sdk-go.sh), config sdk/go/oapi-codegen.yaml,
#                     on the OpenAPI 3.0 copy of the document that scripts/sdk/go-openapi30.mjs writes
#                     (oapi-codegen reads 3.0: type lists with null, const, examples; only the SDK's operations)
#   resources.gen.go  scripts/sdk/go-resources.mjs (one method per operation), gofmt-ed
# $2 is the OpenAPI document to read (default sdk/openapi.json).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$1"
DOC="${2:-$ROOT/sdk/openapi.json}"
OAPI_CODEGEN=$(bash "$ROOT/scripts/install-sdk-go.sh")
GOFMT="$(go env GOROOT)/bin/gofmt"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
node "$ROOT/scripts/sdk/go-openapi30.mjs" "$DOC" "$ROOT/sdk/operations.json" "$TMP/openapi30.json"
"$OAPI_CODEGEN" -config "$ROOT/sdk/go/oapi-codegen.yaml" -o "$OUT/types.gen.go" "$TMP/openapi30.json"
node "$ROOT/scripts/sdk/go-resources.mjs" "$DOC" "$ROOT/sdk/operations.json" "$OUT/types.gen.go" "$OUT/resources.gen.go"
"$GOFMT" -w "$OUT/resources.gen.go"
