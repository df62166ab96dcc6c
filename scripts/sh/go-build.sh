# shellcheck shell=bash
# Sourced by the scripts that build a pinned Go tool from the Go module proxy (install-versitygw.sh,
# install-yaml-host.sh, lint-workflows.sh): each has a wrapper module under scripts/ whose go.sum checks every
# download.

# go_build_pinned MODULE_DIR LDFLAGS OUTPUT PACKAGE
# Builds PACKAGE in the wrapper module MODULE_DIR into the file OUTPUT (its folder made first): no cgo, the Go
# on PATH only (no toolchain download), go.mod and go.sum read-only, build paths trimmed. It writes
# OUTPUT.partial and renames it once the build succeeded, so an interrupted build never leaves an OUTPUT.
# Returns go build's failure for the caller to explain; a failed mkdir or mv ends the script, as under set -e.
go_build_pinned() {
  local module_dir=$1 ldflags=$2 output=$3 package=$4
  mkdir -p "$(dirname "$output")" || exit
  (cd "$module_dir" &&
    CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=readonly go build -trimpath -ldflags "$ldflags" \
      -o "$output.partial" "$package") || return
  mv "$output.partial" "$output" || exit
}
