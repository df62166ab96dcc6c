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

/** Whether an install that printed `output` failed on the network (and is safe to run again). */
export function isRegistryStall(output: string): boolean {
  return REGISTRY_STALL.test(output);
}
