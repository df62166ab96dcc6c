#!/usr/bin/env bash
# Usage: bash scripts/install-pulumi.sh [VERSION]
# Installs the Pulumi CLI that this project's Automation API programs drive: VERSION defaults to 3.248.0 (the
# project's own); 3.259.0 is the newest pair's (scripts/newest-pair.sh). Each version has its wrapper module:
# scripts/pulumi-cli for 3.248.0, scripts/pulumi-cli-<VERSION> otherwise, checksums pinned by its go.sum.
#
# 1. If $PULUMI_HOME/versions/VERSION/bin/pulumi already prints vVERSION and the dynamic-provider plugin and
#    the Node.js language host sit beside it, do nothing (copy whichever of the two is missing).
# 2. Else, with a Go on PATH at least as new as the wrapper module's `go` directive (1.25.11 for 3.248.0 and
#    3.259.0, from pulumi/pkg's own go.mod; every go command runs with GOTOOLCHAIN=local, so an older Go
#    refuses the module), build the CLI from the Go module proxy and copy the plugin from @pulumi/pulumi
#    and the language host beside it.
# The language host (pulumi-language-nodejs, which runs a project folder: `pulumi up` where Pulumi.yaml is) is
# not served by the Go module proxy here; it is taken prebuilt from $SHIPPING_LANGHOST_DIR/VERSION, by default
# ../shared/pulumi-langhost/VERSION beside the repository (see its README). Official installs ship it.
# 3. Else, explain how to get the CLI.
#
# The root of the default version can be overridden with SHIPPING_PULUMI_ROOT (which scripts/lib/pulumiCli.ts
# reads too). This script always builds; `node dist/scripts/ensurePulumiCli.js` (npm test, the demo) first
# looks for an installed CLI that fits and runs this script only when there is none.
set -euo pipefail

readonly DEFAULT_VERSION="3.248.0"
readonly PULUMI_VERSION="${1:-$DEFAULT_VERSION}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "$PULUMI_VERSION" = "$DEFAULT_VERSION" ]; then
  module_dir="$repo_root/scripts/pulumi-cli"
else
  module_dir="$repo_root/scripts/pulumi-cli-$PULUMI_VERSION"
fi
pulumi_home="${PULUMI_HOME:-$HOME/.pulumi}"
if [ "$PULUMI_VERSION" = "$DEFAULT_VERSION" ]; then
  root="${SHIPPING_PULUMI_ROOT:-$pulumi_home/versions/$PULUMI_VERSION}"
else
  root="$pulumi_home/versions/$PULUMI_VERSION"
fi
binary="$root/bin/pulumi"
plugin_name="pulumi-resource-pulumi-nodejs"
readonly cli_package="github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
plugin_source="$repo_root/node_modules/@pulumi/pulumi/$plugin_name"
readonly host_name="pulumi-language-nodejs"
host_source="${SHIPPING_LANGHOST_DIR:-$repo_root/../shared/pulumi-langhost}/$PULUMI_VERSION/$host_name"

step_started=0
step() { step_started=$(date +%s); echo "==> $*"; }
done_step() { echo "    done in $(($(date +%s) - step_started)) s"; }
fail() { echo "install-pulumi: $*" >&2; exit 1; }
[ -f "$module_dir/go.mod" ] || fail "no wrapper module for Pulumi CLI $PULUMI_VERSION ($module_dir/go.mod)"
# The oldest Go that builds it: the wrapper module's `go` directive (with GOTOOLCHAIN=local, an older Go stops).
go_min="$(sed -nE 's/^go ([0-9]+\.[0-9]+(\.[0-9]+)?)[[:space:]]*$/\1/p' "$module_dir/go.mod")"
[ -n "$go_min" ] || fail "$module_dir/go.mod has no go directive"

# Whether Go version $1 (as `go env GOVERSION` prints it: go1.25.3, go1.26rc1) is at least $2 (1.25.11).
go_at_least() {
  local have want
  have="$(printf '%s' "$1" | sed -nE 's/^go([0-9]+)\.([0-9]+)(\.([0-9]+))?.*/\1 \2 \4/p')"
  [ -n "$have" ] || return 1
  want="$(printf '%s' "$2" | sed -nE 's/^([0-9]+)\.([0-9]+)(\.([0-9]+))?$/\1 \2 \4/p')"
  read -r have_major have_minor have_patch <<<"$have"
  read -r want_major want_minor want_patch <<<"$want"
  have_patch="${have_patch:-0}" want_patch="${want_patch:-0}"
  ((have_major != want_major)) && { ((have_major > want_major)); return; }
  ((have_minor != want_minor)) && { ((have_minor > want_minor)); return; }
  ((have_patch >= want_patch))
}

install_plugin() {
  [ -f "$plugin_source" ] || fail "$plugin_source is missing. Run 'npm ci' first: the plugin ships in @pulumi/pulumi."
  cp "$plugin_source" "$root/bin/$plugin_name"
  chmod +x "$root/bin/$plugin_name"
}

install_language_host() {
  [ -x "$host_source" ] || fail "no Node.js language host for the Pulumi CLI v$PULUMI_VERSION at $host_source.
Without it the CLI runs only Automation API inline programs, not a project folder (pulumi up where Pulumi.yaml
is). Official installs ship $host_name beside the CLI; here it is provided prebuilt in ../shared/pulumi-langhost
(see its README): set SHIPPING_LANGHOST_DIR to the folder holding <version>/$host_name if it is elsewhere."
  install -m 0755 "$host_source" "$root/bin/$host_name.partial"
  mv "$root/bin/$host_name.partial" "$root/bin/$host_name"
}

if [ -x "$binary" ] && [ "$("$binary" version 2>/dev/null)" = "v$PULUMI_VERSION" ]; then
  if [ -x "$root/bin/$plugin_name" ] && [ -x "$root/bin/$host_name" ]; then
    echo "Pulumi CLI v$PULUMI_VERSION is ready at $binary with its Node.js language host (nothing to do)."
    exit 0
  fi
  if ! [ -x "$root/bin/$plugin_name" ]; then
    step "Copying $plugin_name beside the CLI"
    install_plugin
    done_step
  fi
  if ! [ -x "$root/bin/$host_name" ]; then
    step "Copying the Node.js language host $host_name beside the CLI"
    install_language_host
    done_step
  fi
  exit 0
fi

# Another CLI in the folder (for example SHIPPING_PULUMI_ROOT pointing at one the user installed, as bin/pulumi
# or, unpacked from the official tarball, as pulumi) is never replaced nor built beside: this script only ever
# writes v$PULUMI_VERSION, into a folder with no other pulumi in it.
for existing in "$binary" "$root/pulumi"; do
  [ -e "$existing" ] && ! [ -d "$existing" ] || continue
  found_version="$("$existing" version 2>/dev/null || echo "a CLI that does not run")"
  fail "$existing is $found_version, not v$PULUMI_VERSION, and is left as it is.
Point SHIPPING_PULUMI_ROOT at a Pulumi CLI 3.181 or newer with the nodejs dynamic provider plugin beside it
(the folder holding bin/pulumi, or pulumi itself as the official tarball unpacks),
or unset it so that v$PULUMI_VERSION is built under $pulumi_home/versions/$PULUMI_VERSION."
done

if ! command -v go >/dev/null 2>&1; then
  fail "no Pulumi CLI v$PULUMI_VERSION at $binary and no Go toolchain to build one.
Either install the official CLI (https://www.pulumi.com/docs/install/; any 3.x from 3.181 on fits) and put
it on PATH or set SHIPPING_PULUMI_ROOT to its folder (the one holding bin/pulumi, or pulumi itself as the
tarball unpacks), or install Go $go_min or newer and run this script again."
fi
go_version="$(go env GOVERSION)"
if ! go_at_least "$go_version" "$go_min"; then
  fail "Go $go_min or newer is needed to build the Pulumi CLI v$PULUMI_VERSION ($module_dir/go.mod); found $go_version."
fi

mkdir -p "$root/bin"
step "Downloading Go modules for the Pulumi CLI v$PULUMI_VERSION (cold: about 1 minute, 1.4 GB cache)"
download_log="$(mktemp)"
# `go list -deps` fetches exactly the modules the build needs. (`go mod download` would fetch the whole module
# graph, and fails on 3.259.0 because the proxy refuses the .info of one pseudo-version the build never reads.)
(cd "$module_dir" && GOTOOLCHAIN=local GOFLAGS=-mod=readonly go list -x -deps "$cli_package" >/dev/null 2>"$download_log") ||
  fail "downloading the modules failed (is the Go module proxy reachable?): $(tail -n 5 "$download_log")"
# grep -c exits 1 when nothing was fetched (a warm module cache): that is not a failure.
echo "    modules fetched: $(grep -c '^# get .*\.zip: 200' "$download_log" || true)"
rm -f "$download_log"
done_step

step "Compiling the Pulumi CLI (cold: about 5 minutes on 2 cores)"
(cd "$module_dir" &&
  CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=readonly go build -trimpath -tags osusergo,grpcnotrace \
    -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION" \
    -o "$binary.partial" "$cli_package") || fail "go build of the Pulumi CLI failed"
mv "$binary.partial" "$binary"
done_step

step "Copying $plugin_name beside the CLI"
install_plugin
done_step

step "Copying the Node.js language host $host_name beside the CLI"
install_language_host
done_step

version="$("$binary" version)"
[ "$version" = "v$PULUMI_VERSION" ] || fail "built CLI reports '$version', expected v$PULUMI_VERSION"
echo "Pulumi CLI $version installed at $binary"
