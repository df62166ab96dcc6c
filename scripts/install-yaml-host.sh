#!/usr/bin/env bash
# Usage: bash scripts/install-yaml-host.sh [CLI_VERSION]
# Puts the Pulumi YAML language host (pulumi-language-yaml v1.25.0, which runs a `runtime: yaml` project
# folder) beside the Pulumi CLI CLI_VERSION (default 3.248.0, the project's own), where the CLI looks for
# language hosts first, as every official install ships it.
#
# 1. If the CLI's bin folder already holds it, do nothing.
# 2. Else, if the cache holds it (built once, for any CLI: the host is its own process and speaks gRPC to any
#    3.x CLI), copy it from there.
# 3. Else, with Go 1.25.11 or newer on PATH, build it from the Go module proxy (wrapper module in
#    scripts/pulumi-language-yaml, checked against its go.sum) into the cache, then copy it:
#      ${SHIPPING_YAML_HOST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-shipping-webhooks/pulumi-language-yaml-v1.25.0}
# v1.25.0 builds against the pulumi/pkg its own go.mod asks for (v3.206.0), not against the CLI's v3.248.0
# (../shared/engine/plugin.md); CLI 3.248.0 and 3.259.0 both run it.
set -euo pipefail

readonly YAML_HOST_VERSION="1.25.0"
readonly CLI_VERSION="${1:-3.248.0}"
readonly host_name="pulumi-language-yaml"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
module_dir="$repo_root/scripts/pulumi-language-yaml"
pulumi_home="${PULUMI_HOME:-$HOME/.pulumi}"
if [ "$CLI_VERSION" = "3.248.0" ]; then
  cli_root="${SHIPPING_PULUMI_ROOT:-$pulumi_home/versions/$CLI_VERSION}"
else
  cli_root="$pulumi_home/versions/$CLI_VERSION"
fi
cache="${SHIPPING_YAML_HOST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-shipping-webhooks/$host_name-v$YAML_HOST_VERSION}"
target="$cli_root/bin/$host_name"
# shellcheck source=scripts/sh/go-build.sh
source "$repo_root/scripts/sh/go-build.sh"

fail() { echo "install-yaml-host: $*" >&2; exit 1; }

[ -d "$cli_root/bin" ] || fail "no Pulumi CLI $CLI_VERSION at $cli_root/bin: run 'node dist/scripts/ensurePulumiCli.js' first."
if [ -x "$target" ]; then
  echo "The YAML language host is ready at $target (nothing to do)."
  exit 0
fi

if ! [ -x "$cache/$host_name" ]; then
  command -v go >/dev/null 2>&1 ||
    fail "the YAML language host is not built yet ($cache/$host_name) and no Go toolchain is on PATH to build it.
Install Go 1.25.11 or newer and run this script again (the plugin stage's YAML programs need it), or copy
pulumi-language-yaml from an official Pulumi install to $target."
  echo "==> Building $host_name v$YAML_HOST_VERSION from the Go module proxy (cold: about 2 minutes on 2 cores)"
  started=$(date +%s)
  go_build_pinned "$module_dir" "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$YAML_HOST_VERSION" \
    "$cache/$host_name" "github.com/pulumi/pulumi-yaml/cmd/$host_name" ||
    fail "go build of $host_name failed (is the Go module proxy reachable?)"
  echo "    done in $(($(date +%s) - started)) s"
fi

install -m 0755 "$cache/$host_name" "$target.partial"
mv "$target.partial" "$target"
echo "The YAML language host v$YAML_HOST_VERSION is installed at $target"
