#!/usr/bin/env bash
# Tests of the runner's main package (the cases, the transfer settings as bee-go options, the ops
# client over bee-go, all against fake nodes), which need bee-go: from the Go module proxy, or
# from the checkout in BEE_GO_PATH (a replace in a temporary modfile, as the engine's build does;
# the committed go.mod and go.sum are never edited). Without either it says so and skips.
set -euo pipefail
# A relative BEE_GO_PATH is relative to where this was started (the repository root under npm).
if [ -n "${BEE_GO_PATH:-}" ]; then BEE_GO_PATH="$(cd "$BEE_GO_PATH" && pwd)"; fi
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp go.mod "$tmp/test.mod"
cp go.sum "$tmp/test.sum"
if [ -n "${BEE_GO_PATH:-}" ]; then
  go mod edit -modfile="$tmp/test.mod" -replace "github.com/ethswarm-tools/bee-go=$BEE_GO_PATH"
fi
export GOFLAGS="-mod=mod -modfile=$tmp/test.mod"
if ! go list -deps . >/dev/null 2>&1; then
  echo "runners/go tests skipped: bee-go is neither served by the Go module proxy nor in BEE_GO_PATH" >&2
  exit 0
fi
go vet ./...
go test -count=1 "$@" ./...
