# shellcheck shell=bash
# Sourced by .ci/run and scripts/newest-pair.sh around their installs from the npm registry. A read from it
# can stall (npm's EIDLETIMEOUT, "Idle timeout reached for host registry.npmjs.org:443"), which npm itself
# does not retry when the stall is in a response body. CI failed once that way (stop 23, in the newest pair's
# `npm ci`), with every test green.

# Attempts of a registry install before CI fails, and the pause after the k-th failed one (k times this; the
# test sets it to 0 through SHIPPING_REGISTRY_BACKOFF_SECONDS).
readonly REGISTRY_ATTEMPTS=3
readonly REGISTRY_BACKOFF_SECONDS="${SHIPPING_REGISTRY_BACKOFF_SECONDS:-10}"
# How long npm waits for the next byte before it gives up on a request (its fetch-timeout, 5 minutes by
# default), in ms: a stall then costs an attempt a minute, not five.
readonly REGISTRY_IDLE_TIMEOUT_MS=60000

# Runs "$@" (an npm install, safe to run again) up to REGISTRY_ATTEMPTS times with npm's fetch-timeout at
# REGISTRY_IDLE_TIMEOUT_MS, pausing k * REGISTRY_BACKOFF_SECONDS after the k-th failure; fails with the last
# exit code and a line naming the command. npm's exit code does not say whether the registry or the package
# failed, so every failure is tried again: a real one shows after the attempts, with its own output each time.
with_registry_retries() {
  local attempt=1 status=0
  while true; do
    npm_config_fetch_timeout="$REGISTRY_IDLE_TIMEOUT_MS" "$@" && return 0
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
