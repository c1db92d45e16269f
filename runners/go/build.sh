#!/bin/sh
# Builds the Go runner into bin/bee-bench-go (or -o FILE).
#   ./build.sh                      bee-go as go.mod requires it (v1.2.1), from the module registry
#   ./build.sh --bee-go DIR         bee-go from a local checkout (a replace in a temporary go.mod)
# The committed go.mod and go.sum are never edited: both modes build from temporary copies.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/bin/bee-bench-go"
checkout=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift 2 ;;
    --bee-go) checkout=$2; shift 2 ;;
    *) echo "usage: $0 [-o FILE] [--bee-go DIR]" >&2; exit 2 ;;
  esac
done
case "$out" in /*) ;; *) out="$(pwd)/$out" ;; esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/go.mod" "$tmp/go.mod"
cp "$here/go.sum" "$tmp/go.sum"
cd "$here"
if [ -z "$checkout" ]; then
  version=$(awk '$1 == "github.com/ethswarm-tools/bee-go" { print $2 }' go.mod)
  ldflags="-X main.clientVersion=$version -X main.clientSource=registry"
else
  checkout=$(cd "$checkout" && pwd)
  go mod edit -modfile="$tmp/go.mod" -replace "github.com/ethswarm-tools/bee-go=$checkout"
  version=$(git -C "$checkout" describe --tags --always --dirty 2>/dev/null || echo unknown)
  commit=$(git -C "$checkout" rev-parse HEAD 2>/dev/null || echo "")
  ldflags="-X main.clientVersion=$version -X main.clientSource=path -X main.clientCommit=$commit"
fi
# -mod=mod lets the temporary go.mod/go.sum take bee-go's sums (registry) or a checkout's
# changed requirements (path) without touching the committed files.
go build -mod=mod -modfile="$tmp/go.mod" -trimpath -ldflags "$ldflags" -o "$out" .
echo "built $out ($version)" >&2
