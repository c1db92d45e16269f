#!/usr/bin/env bash
# Lint of the three runners, all at zero findings: go vet and staticcheck for both Go modules,
# cargo clippy -D warnings for the Rust runner, tsc --checkJs for the JS runner. Installs
# staticcheck into GOPATH when missing (the Go module proxy serves it). The Go runner needs bee-go:
# from the proxy, or from the checkout in BEE_GO_PATH (a replace in a temporary modfile, as the
# engine's build does); without either it is skipped with a line saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

staticcheck_version=v0.8.2 # staticcheck 2026.2.2: the first to read Go 1.26
staticcheck="$(go env GOPATH)/bin/staticcheck"
if ! "$staticcheck" -version 2>/dev/null | grep -q "(${staticcheck_version#v})"; then
  echo "lint-runners: installing staticcheck $staticcheck_version (go install)" >&2
  go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
fi

echo "lint-runners: runners/go/harness" >&2
(cd runners/go/harness && go vet ./... && "$staticcheck" ./...)

echo "lint-runners: runners/go" >&2
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp runners/go/go.mod "$tmp/lint.mod"
cp runners/go/go.sum "$tmp/lint.sum"
if [ -n "${BEE_GO_PATH:-}" ]; then
  (cd runners/go && go mod edit -modfile="$tmp/lint.mod" -replace "github.com/ethswarm-tools/bee-go=$BEE_GO_PATH")
fi
if (cd runners/go && GOFLAGS="-mod=mod -modfile=$tmp/lint.mod" go list -deps . >/dev/null 2>&1); then
  (cd runners/go && export GOFLAGS="-mod=mod -modfile=$tmp/lint.mod" && go vet ./... && "$staticcheck" ./...)
else
  echo "lint-runners: runners/go skipped: bee-go is neither served by the Go module proxy nor in BEE_GO_PATH" >&2
fi

echo "lint-runners: runners/rs" >&2
(cd runners/rs && cargo clippy --locked --all-targets -- -D warnings)

echo "lint-runners: runners/js" >&2
[ -d runners/js/node_modules ] || npm ci --prefix runners/js --no-audit --no-fund --loglevel=error
node_modules/.bin/tsc -p runners/js/tsconfig.json
