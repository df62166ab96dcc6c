# shellcheck shell=bash
# Sourced by .ci/run and scripts/newest-pair.sh. The npm registry is the only network these scripts reach, and
# a read from it can stall (npm's EIDLETIMEOUT, "Idle timeout reached for host registry.npmjs.org:443"), which
# npm itself does not retry when the stall is in a response body. CI failed once that way (stop 23, in the
# newest pair's `npm ci`), with every test green.

# Attempts of a registry install before CI fails, and the pause after the k-th failed one (k times this; the
# test sets it to 0 through SHIPPING_REGISTRY_BACKOFF_SECONDS).
readonly REGISTRY_ATTEMPTS=3
readonly REGISTRY_BACKOFF_SECONDS="${SHIPPING_REGISTRY_BACKOFF_SECONDS:-10}"

# Runs "$@" (an install from the registry, safe to run again) up to REGISTRY_ATTEMPTS times, pausing
# k * REGISTRY_BACKOFF_SECONDS after the k-th failure; fails with the last exit code and a line naming the
# command.
with_registry_retries() {
  local attempt=1 status=0
  while true; do
    "$@" && return 0
    status=$?
    if [ "$attempt" -ge "$REGISTRY_ATTEMPTS" ]; then
      echo "retry: '$*' failed $attempt times (last exit $status); giving up" >&2
      return "$status"
    fi
    echo "retry: '$*' failed (exit $status, attempt $attempt of $REGISTRY_ATTEMPTS); again in $((attempt * REGISTRY_BACKOFF_SECONDS)) s" >&2
    sleep "$((attempt * REGISTRY_BACKOFF_SECONDS))"
    attempt=$((attempt + 1))
  done
}
