#!/usr/bin/env bash
# npm test and the test stages of CI (package.json: test, test:e2e, test:s3, test:faults, test:packages): build,
# find or build the Pulumi CLI (and versitygw for the S3 stage, the YAML language host and the Go Automation API
# program for the plugin stage),
# run the vitest projects named, then print how
# long it all took and the load average at its start and end: this is a 2-core machine, often shared, and the
# load says how much of the time the tests had it.
#   bash scripts/test-stage.sh <label> [--versitygw] [--yaml-host] [--go-program] <project>... [-- <vitest arguments>]
# `npm test -- <file or filter>` passes its arguments to vitest after the projects. With SHIPPING_TESTS_BUILT=1
# (.ci/run, for the stages after npm test, which built dist/ from the same sources) the build is not redone.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

label="$1"
shift
versitygw=false
yaml_host=false
go_program=false
while [ "${1:-}" = "--versitygw" ] || [ "${1:-}" = "--yaml-host" ] || [ "${1:-}" = "--go-program" ]; do
  [ "$1" = "--versitygw" ] && versitygw=true
  [ "$1" = "--yaml-host" ] && yaml_host=true
  [ "$1" = "--go-program" ] && go_program=true
  shift
done
projects=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  projects+=(--project "$1")
  shift
done
[ "${1:-}" = "--" ] && shift

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime; }
started=$(date +%s)
load_at_start="$(load)"
status=0
{
  { [ "${SHIPPING_TESTS_BUILT:-}" = 1 ] || npm run build --silent; } &&
    node dist/scripts/ensurePulumiCli.js &&
    { [ "$versitygw" = false ] || bash scripts/install-versitygw.sh; } &&
    { [ "$yaml_host" = false ] || bash scripts/install-yaml-host.sh; } &&
    { [ "$go_program" = false ] || bash scripts/build-go-program.sh; } &&
    node node_modules/vitest/vitest.mjs run "${projects[@]}" "$@"
} || status=$?
echo
echo "${label}: $(($(date +%s) - started)) s (exit ${status}); load average ${load_at_start} at the start, $(load) at the end, on $(nproc 2>/dev/null || echo "?") cores"
exit "$status"
