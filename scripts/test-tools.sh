#!/usr/bin/env bash
# The tools the tests need beyond Node, Go and Rust: Chromium (report.html and the trend site in a
# real browser), valgrind (instruction counts), shellcheck and actionlint (workflow lint), xz (the
# tests unpack real Bee nodes from ../shared/bee's .xz archives: test/bee/real-node.ts). Installs
# what is missing (apt-get as root; actionlint through the Go module proxy), or fails in one line
# naming the command that installs it. Run first by `npm test` and by .ci/run.
set -euo pipefail

# command=package where the two differ.
missing=()
for tool in chromium valgrind shellcheck xz=xz-utils; do
  command -v "${tool%%=*}" >/dev/null 2>&1 || missing+=("${tool#*=}")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-tools: the tests need ${missing[*]}: install with 'sudo apt-get install -y ${missing[*]}' (or run 'sudo npm run test:tools')" >&2
    exit 1
  fi
  echo "test-tools: installing ${missing[*]} (apt-get)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

actionlint="$(go env GOPATH)/bin/actionlint"
if [ ! -x "$actionlint" ]; then
  echo "test-tools: installing actionlint (go install)" >&2
  go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 || {
    echo "test-tools: actionlint did not install: run 'go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12'" >&2
    exit 1
  }
fi
