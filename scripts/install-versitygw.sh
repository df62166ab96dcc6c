#!/usr/bin/env bash
# Builds Versity's S3 gateway (versitygw) v1.8.0, the S3-compatible server that the tests of the Pulumi S3
# state backend start on loopback (POSIX backend in a temporary folder).
#
# 1. If the binary already reports v1.8.0, do nothing.
# 2. Else, with Go 1.25 or newer on PATH, build it from the Go module proxy (wrapper module in
#    scripts/versitygw, every download checked against its go.sum) into the cache folder:
#      ${SHIPPING_VERSITYGW_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-shipping-webhooks/versitygw-v1.8.0}/versitygw
#    (test/support/versitygw.ts finds it at the same place).
# 3. Else, explain how to get Go.
set -euo pipefail

readonly VERSITYGW_VERSION="1.8.0"
readonly GO_MIN_MINOR=25
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="${SHIPPING_VERSITYGW_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-shipping-webhooks/versitygw-v$VERSITYGW_VERSION}"
binary="$root/versitygw"
# shellcheck source=scripts/sh/go-build.sh
source "$repo_root/scripts/sh/go-build.sh"

fail() { echo "install-versitygw: $*" >&2; exit 1; }

installed_version() { "$binary" --version 2>/dev/null | sed -n -E 's/^Version *: *v?//p'; }

if [ -x "$binary" ] && [ "$(installed_version)" = "$VERSITYGW_VERSION" ]; then
  echo "versitygw v$VERSITYGW_VERSION is ready at $binary (nothing to do)."
  exit 0
fi

command -v go >/dev/null 2>&1 ||
  fail "versitygw v$VERSITYGW_VERSION is not built yet ($binary) and no Go toolchain is on PATH to build it.
Install Go 1.$GO_MIN_MINOR+ and run this script again (the S3 state backend tests need it)."
go_minor="$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')"
if ! [[ "$go_minor" =~ ^[0-9]+$ ]] || [ "$go_minor" -lt "$GO_MIN_MINOR" ]; then
  fail "Go 1.$GO_MIN_MINOR or newer is needed to build versitygw; found $(go env GOVERSION)."
fi

echo "==> Building versitygw v$VERSITYGW_VERSION from the Go module proxy into $binary (cold: 2 to 7 minutes on 2 cores)"
started=$(date +%s)
go_build_pinned "$repo_root/scripts/versitygw" "-s -w -X main.Version=v$VERSITYGW_VERSION" "$binary" \
  github.com/versity/versitygw/cmd/versitygw ||
  fail "go build of versitygw failed (is the Go module proxy reachable? does scripts/versitygw/go.sum match?)"
[ "$(installed_version)" = "$VERSITYGW_VERSION" ] ||
  fail "the built versitygw reports '$(installed_version)', expected $VERSITYGW_VERSION"
echo "    done in $(($(date +%s) - started)) s"
