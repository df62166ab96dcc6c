/**
 * When and how long to wait before retrying a request. Pure functions, tested as a table; the client plugs
 * them into undici's own retry interceptor.
 *
 * A POST whose outcome is unknown is never retried blind: a timeout, a reset or a closed socket after the
 * request was sent, or a 502/504 from a gateway, may all be followed by the service applying the write late
 * (behind a gateway or a slow backend), after a retry was answered and recorded; under the service's new-id
 * overwrite the late write then replaces the recorded id, or puts back an older URL. The caller relists
 * instead (createPost.ts). A POST is retried only when it surely never reached the service (connection
 * refused, no route, connect timeout) or the service answered 429/503 without processing it. DELETE of an
 * id that the lost attempt already removed answers 404, which the provider treats as done.
 */

/** Retry settings; every duration in milliseconds. */
export interface RetrySettings {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** Backoff of the first retry, before jitter. */
  readonly baseDelayMs: number;
  /** Cap of the exponential backoff. */
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the call fails at once with the 429 or 503. */
  readonly maxRetryAfterMs: number;
}

/** Defaults: 4 retries over about 4 s of backoff, and waiting up to 30 s when the service says so. */
export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  maxRetries: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 30_000,
};

/** Statuses worth another attempt. */
export const RETRYABLE_STATUSES: readonly number[] = [
  429, // rate limited: the window slides, a later attempt can pass
  502, // bad gateway: a proxy in front of the service failed
  503, // unavailable: overloaded or restarting
  504, // gateway timeout: the service did not answer the proxy in time
];

/** undici error codes of failures where no (complete) response arrived. */
export const RETRYABLE_ERROR_CODES: readonly string[] = [
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
];

/**
 * Failures after which a POST surely never reached the service (nothing was sent, or nobody listened):
 * retried. Every other connection-level failure of a POST leaves its outcome unknown.
 */
const UNSENT_ERROR_CODES: readonly string[] = [
  "ECONNREFUSED",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
];

/** Statuses by which a gateway says it gave up waiting or lost the service: a POST may still be applied. */
export const OUTCOME_UNKNOWN_STATUSES: readonly number[] = [502, 504];

/** One failed attempt, as the retry decision sees it. */
export interface FailedAttempt {
  /** The request's method, when known; a POST whose outcome is unknown is not retried. */
  readonly method?: string;
  /** 1 for the first failure. */
  readonly attempt: number;
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  /** Error code, when no response arrived. */
  readonly errorCode?: string;
  /** Wait the server asked for, in ms (already parsed), when it sent `Retry-After`. */
  readonly retryAfterMs?: number;
}

/** Decides whether to retry; `false` means give the failure to the caller. */
export function shouldRetry(
  failure: FailedAttempt,
  settings: RetrySettings = DEFAULT_RETRY_SETTINGS,
): boolean {
  // The budget is spent.
  if (failure.attempt > settings.maxRetries) return false;
  // The server asked for a longer wait than we are willing to block a deployment for.
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs > settings.maxRetryAfterMs) return false;
  const post = failure.method?.toUpperCase() === "POST";
  // A response arrived: only transient statuses are retried (a 500 is a fault of the service, not of timing);
  // a gateway's 502/504 to a POST leaves it unknown whether the service applies it later.
  if (failure.status !== undefined)
    return (
      RETRYABLE_STATUSES.includes(failure.status) &&
      !(post && OUTCOME_UNKNOWN_STATUSES.includes(failure.status))
    );
  if (failure.errorCode === undefined) return false;
  // No response: a POST only when it surely was not sent; other methods on any connection-level failure.
  if (post) return UNSENT_ERROR_CODES.includes(failure.errorCode);
  return RETRYABLE_ERROR_CODES.includes(failure.errorCode);
}

/**
 * How long to wait before the next attempt: the server's `Retry-After` when given, else capped
 * exponential backoff with equal jitter (half fixed, half random) so that parallel clients spread out.
 */
export function retryDelayMs(
  failure: FailedAttempt,
  settings: RetrySettings = DEFAULT_RETRY_SETTINGS,
  random: () => number = Math.random,
): number {
  if (failure.retryAfterMs !== undefined) return Math.max(0, failure.retryAfterMs);
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (failure.attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Parses `Retry-After` (delta seconds or an HTTP date) into ms from `now`; undefined when absent or bad. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
