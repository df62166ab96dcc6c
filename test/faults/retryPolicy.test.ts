import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_SETTINGS,
  type FailedAttempt,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
} from "../../provider/client/retryPolicy";

describe("shouldRetry", () => {
  it.each<[string, FailedAttempt, boolean]>([
    ["429 rate limited", { attempt: 1, status: 429 }, true],
    ["502 bad gateway", { attempt: 1, status: 502 }, true],
    ["503 unavailable", { attempt: 2, status: 503 }, true],
    ["504 gateway timeout", { attempt: 3, status: 504 }, true],
    ["500 is a service fault, not transient", { attempt: 1, status: 500 }, false],
    ["400 malformed", { attempt: 1, status: 400 }, false],
    ["401 unauthorized", { attempt: 1, status: 401 }, false],
    ["404 not found", { attempt: 1, status: 404 }, false],
    ["422 invalid", { attempt: 1, status: 422 }, false],
    ["connection reset", { attempt: 1, errorCode: "ECONNRESET" }, true],
    ["socket closed mid-answer", { attempt: 1, errorCode: "UND_ERR_SOCKET" }, true],
    ["stalled server", { attempt: 1, errorCode: "UND_ERR_HEADERS_TIMEOUT" }, true],
    ["refused", { attempt: 1, errorCode: "ECONNREFUSED" }, true],
    [
      "TLS certificate error is never retried",
      { attempt: 1, errorCode: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" },
      false,
    ],
    ["no status and no code", { attempt: 1 }, false],
    ["budget spent", { attempt: DEFAULT_RETRY_SETTINGS.maxRetries + 1, status: 503 }, false],
    ["last retry of the budget", { attempt: DEFAULT_RETRY_SETTINGS.maxRetries, status: 503 }, true],
    ["Retry-After within the cap", { attempt: 1, status: 429, retryAfterMs: 30_000 }, true],
    ["Retry-After beyond the cap", { attempt: 1, status: 429, retryAfterMs: 30_001 }, false],
    // A POST whose outcome is unknown may be applied late: never sent again blind (the caller relists).
    [
      "POST timed out waiting for the answer",
      { method: "POST", attempt: 1, errorCode: "UND_ERR_HEADERS_TIMEOUT" },
      false,
    ],
    ["POST reset after it was sent", { method: "POST", attempt: 1, errorCode: "ECONNRESET" }, false],
    ["POST socket closed mid-answer", { method: "POST", attempt: 1, errorCode: "UND_ERR_SOCKET" }, false],
    ["POST body timeout", { method: "POST", attempt: 1, errorCode: "UND_ERR_BODY_TIMEOUT" }, false],
    ["POST broken pipe while sending", { method: "POST", attempt: 1, errorCode: "EPIPE" }, false],
    ["POST 502 from a gateway", { method: "POST", attempt: 1, status: 502 }, false],
    ["POST 504 from a gateway", { method: "POST", attempt: 1, status: 504 }, false],
    ["POST 500", { method: "POST", attempt: 1, status: 500 }, false],
    // A POST that surely never reached the service, or that it refused unprocessed, is sent again.
    ["POST connection refused", { method: "POST", attempt: 1, errorCode: "ECONNREFUSED" }, true],
    ["POST connect timeout", { method: "POST", attempt: 1, errorCode: "UND_ERR_CONNECT_TIMEOUT" }, true],
    ["POST no route to host", { method: "POST", attempt: 1, errorCode: "EHOSTUNREACH" }, true],
    ["POST rate limited", { method: "post", attempt: 1, status: 429 }, true],
    ["POST 503 unavailable", { method: "POST", attempt: 1, status: 503 }, true],
    ["POST refused, budget spent", { method: "POST", attempt: 5, errorCode: "ECONNREFUSED" }, false],
    ["GET timed out is retried", { method: "GET", attempt: 1, errorCode: "UND_ERR_HEADERS_TIMEOUT" }, true],
    [
      "DELETE 504 is retried (404 after a lost attempt is done)",
      { method: "DELETE", attempt: 1, status: 504 },
      true,
    ],
  ])("%s -> %s", (_case, failure, expected) => {
    expect(shouldRetry(failure)).toBe(expected);
  });
});

describe("retryDelayMs", () => {
  const settings = { maxRetries: 9, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
  it.each([
    // attempt, random, expected: ceiling = min(1000, 100 * 2^(attempt-1)); delay = ceiling/2 + random*ceiling/2
    [1, 0, 50],
    [1, 1, 100],
    [2, 0.5, 150],
    [4, 0, 400],
    [5, 1, 1_000],
    [9, 0, 500],
  ])("attempt %i with random %f waits %i ms", (attempt, random, expected) => {
    expect(retryDelayMs({ attempt, status: 503 }, settings, () => random)).toBe(expected);
  });

  it("waits what Retry-After asks, ignoring the backoff", () => {
    expect(retryDelayMs({ attempt: 1, status: 429, retryAfterMs: 2_000 }, settings, () => 0)).toBe(2_000);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");
  it.each<[string | undefined, number | undefined]>([
    ["3", 3_000],
    [" 0 ", 0],
    ["Sun, 22 Nov 2026 10:00:05 GMT", 5_000],
    ["Sun, 22 Nov 2026 09:59:00 GMT", 0],
    ["soon", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%j -> %j", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
