#!/usr/bin/env bash
# Usage: bash scripts/build-go-program.sh
# Builds the Go Automation API program of the plugin stage (test/plugin/go-program: a Go program that declares
# shipping:index:WebhookSubscription by its type token through the provider plugin, run inline, so no Go
# language host is needed) and prints its path on the last line. Built once per content of its go.mod, go.sum
# and main.go into
#   ${SHIPPING_GO_PROGRAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-shipping-webhooks}/go-program-<digest>
# from the Go module proxy, checked against its go.sum (sdk v3.248.0, the CLI's own; cold: about 2.5 minutes of
# compiling on 2 quiet cores, much longer on a loaded machine).
#
# Without Go on PATH (or in /usr/local/go/bin) it prints "no Go toolchain" and exits 0, unless
# SHIPPING_EXPECT_GO=1 (CI, which builds the Pulumi CLI with Go and so has it): then it fails.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
module_dir="$repo_root/test/plugin/go-program"
# shellcheck source=scripts/sh/go-build.sh
source "$repo_root/scripts/sh/go-build.sh"

fail() { echo "build-go-program: $*" >&2; exit 1; }

command -v go >/dev/null 2>&1 || [ ! -x /usr/local/go/bin/go ] || PATH="/usr/local/go/bin:$PATH"
if ! command -v go >/dev/null 2>&1; then
  [ "${SHIPPING_EXPECT_GO:-}" != 1 ] ||
    fail "SHIPPING_EXPECT_GO=1 but no Go toolchain is on PATH: the Go Automation API test cannot run."
  echo "build-go-program: no Go toolchain on PATH; the Go Automation API test is not run (SHIPPING_EXPECT_GO=1 makes this an error)."
  echo "no Go toolchain"
  exit 0
fi

digest="$(cat "$module_dir/go.mod" "$module_dir/go.sum" "$module_dir/main.go" | sha256sum | cut -c1-16)"
cache="${SHIPPING_GO_PROGRAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-shipping-webhooks}/go-program-$digest"
binary="$cache/go-program"
if ! [ -x "$binary" ]; then
  echo "==> Building the Go Automation API program (test/plugin/go-program) with $(go version | cut -d' ' -f3)" >&2
  started=$(date +%s)
  go_build_pinned "$module_dir" "-s -w" "$binary" . ||
    fail "go build of test/plugin/go-program failed (is the Go module proxy reachable?)"
  echo "==> Built in $(($(date +%s) - started)) s" >&2
fi
echo "$binary"
