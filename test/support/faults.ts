import type { FaultSpec, RunningSimulator } from "../../simulator";

/** A request method the provider sends. */
export type Method = "GET" | "POST" | "DELETE";

/** One fault of the matrix: a burst the client should live through, and the same fault without end. */
export interface FaultCase {
  /** Row label, e.g. "503 burst". */
  readonly name: string;
  /** The burst, applied to `method` requests only. */
  burst(method: Method): FaultSpec;
  /** The fault until cleared: it outlasts any retry budget. */
  endless(method: Method): FaultSpec;
  /** Whether the client's retries absorb the burst (the first run succeeds). A 500 is never retried. */
  readonly absorbed: boolean;
  /**
   * Whether a POST the service applied under this fault is found by the provider's fresh listing and
   * recorded, so that even the endless fault cannot fail a create (the write was done; only the answer was lost).
   */
  readonly appliedPostRecorded?: boolean;
  /**
   * Whether a POST under this fault may have reached the service, so that its outcome is unknown: it is never
   * sent again (the service may still apply it late), and the burst fails the create (a GET or DELETE is retried).
   */
  readonly postOutcomeUnknown?: boolean;
  /** What the error of a run that gave up must say (status or connection error code). */
  readonly failure: RegExp;
}

/** A stall is held this long by the simulator: far past the client's headers timeout below. */
const STALL_MS = 30_000;

/**
 * A late-apply fault applies its request this long after it arrived: well after the headers timeout below
 * fired (undici's timers are coarse, about half a second) and the create listed the shop again.
 */
const LATE_MS = 6_000;

/**
 * Waits (polling, with a deadline) until every request a late-apply fault held was applied, so that the run
 * after the fault comes after the late write landed, as the failed create advises.
 */
export async function lateWritesLanded(sim: RunningSimulator): Promise<void> {
  const deadline = Date.now() + LATE_MS + 30_000;
  const held = () =>
    sim.requests().filter((r) => r.fault === "late-apply" && r.appliedStatus === undefined && !r.aborted);
  while (held().length > 0) {
    if (Date.now() > deadline) throw new Error(`${held().length} held request(s) never applied`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Short client limits (stack config `shipping:timeouts` / `shipping:retry`), so that a fault that outlasts
 * the budget fails within seconds: at most 1 + 3 attempts, 2 s headers timeout, 15 s per call.
 */
export const FAST_CLIENT = {
  timeouts: { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000, deadlineMs: 15_000 },
  retry: { maxRetries: 3, baseDelayMs: 50, maxDelayMs: 400, maxRetryAfterMs: 5_000 },
} as const;

const socketFailure = /ECONNRESET|UND_ERR_SOCKET|other side closed|socket hang up/;

/** The seven faults of issue 10, and a write applied after its client gave up (issue 34). */
export const FAULTS: readonly FaultCase[] = [
  {
    name: "500 burst",
    burst: (method) => ({ kind: "status", status: 500, count: 2, method }),
    endless: (method) => ({ kind: "status", status: 500, method }),
    absorbed: false,
    failure: /status code 500 Internal Server Error/,
  },
  {
    name: "503 burst",
    burst: (method) => ({ kind: "status", status: 503, count: 2, method }),
    endless: (method) => ({ kind: "status", status: 503, method }),
    absorbed: true,
    failure: /status code 503 Service Unavailable/,
  },
  {
    name: "429 + Retry-After",
    burst: (method) => ({ kind: "status", status: 429, count: 2, retryAfterSeconds: 1, method }),
    endless: (method) => ({ kind: "status", status: 429, retryAfterSeconds: 1, method }),
    absorbed: true,
    failure: /status code 429 Too Many Requests.*hint: rate limited/,
  },
  {
    name: "429, no Retry-After",
    burst: (method) => ({ kind: "status", status: 429, count: 2, method }),
    endless: (method) => ({ kind: "status", status: 429, method }),
    absorbed: true,
    failure: /status code 429 Too Many Requests.*hint: rate limited/,
  },
  {
    name: "stall > timeout",
    burst: (method) => ({ kind: "stall", ms: STALL_MS, count: 1, method }),
    endless: (method) => ({ kind: "stall", ms: STALL_MS, method }),
    absorbed: true,
    postOutcomeUnknown: true,
    failure: /UND_ERR_HEADERS_TIMEOUT|DEADLINE/,
  },
  {
    name: "reset before processing",
    burst: (method) => ({ kind: "reset", count: 2, method }),
    endless: (method) => ({ kind: "reset", method }),
    absorbed: true,
    postOutcomeUnknown: true,
    failure: socketFailure,
  },
  {
    name: "write applied, then drop",
    burst: (method) => ({ kind: "drop-after-write", count: 1, method }),
    endless: (method) => ({ kind: "drop-after-write", method }),
    absorbed: true,
    appliedPostRecorded: true,
    failure: socketFailure,
  },
  {
    name: "write applied late",
    burst: (method) => ({ kind: "late-apply", ms: LATE_MS, count: 1, method }),
    endless: (method) => ({ kind: "late-apply", ms: LATE_MS, method }),
    absorbed: true,
    postOutcomeUnknown: true,
    failure: /UND_ERR_HEADERS_TIMEOUT|DEADLINE/,
  },
];

/** Short reason of a failed run for the table: the HTTP status or the connection error code. */
export function shortReason(error: string): string {
  const status = /status code (\d{3})/.exec(error);
  if (status?.[1] !== undefined) return status[1];
  const code =
    /\((UND_ERR_[A-Z_]+|E[A-Z]+|DEADLINE)\)/.exec(error) ?? /(UND_ERR_[A-Z_]+|ECONN[A-Z]+)/.exec(error);
  if (code?.[1] !== undefined) return code[1];
  return error.replace(/\s+/g, " ").slice(0, 40);
}
