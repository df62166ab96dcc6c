#!/usr/bin/env bash
# Lints the GitHub Actions workflows of the repository (.github/workflows: the release) and of the examples
# (examples/*/.github/workflows) with actionlint.
#
# actionlint v1.7.12 is built once from the Go module proxy (wrapper module in scripts/actionlint, every
# download checked against its go.sum) into a cache folder, then reused:
#   ${ACTIONLINT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-shipping-webhooks}/actionlint-v1.7.12/actionlint
# Arguments: workflow files to lint instead of the default ones. Exit status: 0 clean, 1 problems found or
# actionlint could not be built.
set -euo pipefail

readonly ACTIONLINT_VERSION="1.7.12"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ACTIONLINT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-shipping-webhooks}"
binary="$cache/actionlint-v$ACTIONLINT_VERSION/actionlint"
# shellcheck source=scripts/sh/go-build.sh
source "$repo_root/scripts/sh/go-build.sh"

fail() { echo "lint-workflows: $*" >&2; exit 1; }

installed_version() { "$binary" -version 2>/dev/null | head -n 1 | sed "s/^v//"; }

if [ ! -x "$binary" ] || [ "$(installed_version)" != "$ACTIONLINT_VERSION" ]; then
  command -v go >/dev/null 2>&1 ||
    fail "actionlint is not built yet ($binary) and no Go toolchain is on PATH to build it: install Go 1.25+."
  echo "==> Building actionlint v$ACTIONLINT_VERSION from the Go module proxy into $binary (cold: about a minute)"
  started=$(date +%s)
  go_build_pinned "$repo_root/scripts/actionlint" "-s -w" "$binary" github.com/rhysd/actionlint/cmd/actionlint ||
    fail "go build of actionlint failed (is the Go module proxy reachable? does scripts/actionlint/go.sum match?)"
  [ "$(installed_version)" = "$ACTIONLINT_VERSION" ] ||
    fail "the built actionlint reports '$(installed_version)', expected $ACTIONLINT_VERSION"
  echo "    done in $(($(date +%s) - started)) s"
fi

if [ "$#" -gt 0 ]; then
  files=("$@")
else
  shopt -s nullglob
  files=("$repo_root"/.github/workflows/*.yml "$repo_root"/examples/*/.github/workflows/*.yml
    "$repo_root"/examples/*/.github/workflows/*.yaml)
  shopt -u nullglob
  [ "${#files[@]}" -gt 0 ] || fail "no workflow found under examples/*/.github/workflows/"
  # Each example whose workflows must be linted; a renamed folder must not drop out silently.
  for example in gitops fleet; do
    printf '%s\n' "${files[@]}" | grep -q "/examples/$example/.github/workflows/" ||
      fail "no workflow found under examples/$example/.github/workflows/"
  done
fi

if command -v shellcheck >/dev/null 2>&1; then
  checks="expressions, contexts, action inputs, and run: scripts with $(command -v shellcheck)"
else
  checks="expressions, contexts and action inputs (install shellcheck to check run: scripts too)"
fi
echo "==> actionlint v$ACTIONLINT_VERSION: $checks"
for file in "${files[@]}"; do echo "    ${file#"$repo_root"/}"; done

if "$binary" -no-color "${files[@]}"; then
  echo "lint-workflows: ${#files[@]} workflow file(s) clean."
else
  fail "actionlint found problems in the workflow file(s) above (each line: file:line:col: message [rule])."
fi
