/**
 * When `trigger` and `resend` ask the simulator again: after a 429, which the simulator answers when
 * MAX_CONCURRENT_EMITS events or resends are in progress, before it sends anything, so another attempt never
 * sends twice. The wait is the answer's `Retry-After` when it gives one (within a bound), else a capped
 * exponential backoff with jitter. Pure functions, tested as a table.
 *
 * Not shared with the provider's client (provider/client/retryPolicy.ts), on purpose: what is retried
 * differs (here the 429 of the simulator's own control endpoints, nothing else; there the API's 429, 502,
 * 503 and 504 and connection failures, with the rule for a POST whose outcome is unknown), and what the two
 * have alike (`retryDelayMs`, `parseRetryAfter`) is client policy and HTTP's Retry-After syntax, which the
 * API's spec does not define (production documents no Retry-After), so it does not belong in contract/;
 * and the simulator may not import provider/ (test/tooling/layout.test.ts).
 */

/** Retry settings of the CLI; every duration in milliseconds. */
interface CliRetrySettings {
  /** Attempts after the first. */
  readonly maxRetries: number;
  /** Backoff of the first retry when the answer gives no Retry-After, before jitter. */
  readonly baseDelayMs: number;
  /** Cap of that backoff. */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the command ends with the 429. */
  readonly maxRetryAfterMs: number;
}

/** Defaults: up to 10 retries, each waiting the simulator's Retry-After (1 s) or up to 2 s of backoff. */
export const CLI_RETRY_SETTINGS: CliRetrySettings = {
  maxRetries: 10,
  baseDelayMs: 250,
  maxDelayMs: 2_000,
  maxRetryAfterMs: 10_000,
};

/** One answer the command got, as the retry decision sees it. */
export interface CliAttempt {
  /** 1 for the first answer. */
  readonly attempt: number;
  readonly status: number;
  /** The answer's `Retry-After`, parsed, in milliseconds (undefined when it gave none). */
  readonly retryAfterMs?: number | undefined;
}

/** Whether to ask again: a 429 only (nothing was sent), within the retry budget and the longest wait. */
export function shouldRetry(answer: CliAttempt, settings: CliRetrySettings = CLI_RETRY_SETTINGS): boolean {
  if (answer.status !== 429) return false;
  if (answer.attempt > settings.maxRetries) return false;
  return answer.retryAfterMs === undefined || answer.retryAfterMs <= settings.maxRetryAfterMs;
}

/** How long to wait before asking again: the Retry-After when given, else backoff with equal jitter. */
export function retryDelayMs(
  answer: CliAttempt,
  settings: CliRetrySettings = CLI_RETRY_SETTINGS,
  random: () => number = Math.random,
): number {
  if (answer.retryAfterMs !== undefined) return Math.max(0, answer.retryAfterMs);
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (answer.attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** `Retry-After` (delta seconds or an HTTP date) in milliseconds from `now`; undefined when absent or bad. */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
