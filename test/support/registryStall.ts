/**
 * What a package manager prints when a read from the npm registry stalls or the connection drops: npm's
 * EIDLETIMEOUT ("Idle timeout reached for host registry.npmjs.org:443", which failed CI once with every
 * test green), resets, DNS hiccups, pnpm's and yarn's socket timeouts. An install that failed with one of
 * these is run again; any other failure is the test's.
 */
const REGISTRY_STALL =
  /\b(EIDLETIMEOUT|ECONNRESET|ETIMEDOUT|ECONNREFUSED|EAI_AGAIN|ERR_SOCKET_TIMEOUT|ERR_PNPM_META_FETCH_FAIL)\b|Idle timeout reached|socket hang up/;

/** Attempts of one consumer install before the test fails. */
export const INSTALL_ATTEMPTS = 3;

/**
 * How long an install waits for the registry's next byte before it fails with EIDLETIMEOUT (npm's and pnpm's
 * fetch-timeout, 5 minutes by default, as long as an install's deadline; yarn's httpTimeout is a minute
 * already), in ms: short enough that a stalled read fails, and is tried again, within that deadline.
 */
export const REGISTRY_IDLE_TIMEOUT_MS = 60_000;

/** Whether an install that printed `output` failed on the network (and is safe to run again). */
export function isRegistryStall(output: string): boolean {
  return REGISTRY_STALL.test(output);
}

/**
 * Runs `install` until it succeeds, at most {@link INSTALL_ATTEMPTS} times, again only when it failed on the
 * network ({@link isRegistryStall} of its error's message); `onRetry` hears of each attempt that is repeated.
 */
export async function retryOnRegistryStall(
  install: () => Promise<void>,
  onRetry: (attempt: number) => void,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await install();
    } catch (error) {
      const output = error instanceof Error ? error.message : String(error);
      if (attempt >= INSTALL_ATTEMPTS || !isRegistryStall(output)) throw error;
      onRetry(attempt);
    }
  }
}
