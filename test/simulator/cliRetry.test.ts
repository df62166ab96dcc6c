/**
 * Issue 36 item 6: `trigger` and `resend` ask again after a 429 (the simulator is busy with
 * MAX_CONCURRENT_EMITS other events), honouring Retry-After within a bound, instead of exiting 1.
 */
import { describe, expect, it } from "vitest";
import {
  CLI_RETRY_SETTINGS,
  type CliAttempt,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
} from "../../simulator/cliRetry";
import { EXIT_ACCEPTED, parseClientCommand, runClientCommand } from "../../simulator/cliTrigger";
import { MAX_CONCURRENT_EMITS } from "../../simulator/constants";
import { api, call, startSim, subs, until } from "./helpers";
import { startReceiver } from "./httpsReceiver";

describe("shouldRetry", () => {
  const max = CLI_RETRY_SETTINGS.maxRetries;
  it.each<[string, CliAttempt, boolean]>([
    ["a 429 with Retry-After: 1", { attempt: 1, status: 429, retryAfterMs: 1_000 }, true],
    ["a 429 without Retry-After", { attempt: 1, status: 429 }, true],
    ["the last retry of the budget", { attempt: max, status: 429, retryAfterMs: 1_000 }, true],
    ["a 429 past the budget", { attempt: max + 1, status: 429, retryAfterMs: 1_000 }, false],
    ["a Retry-After at the longest wait", { attempt: 1, status: 429, retryAfterMs: 10_000 }, true],
    ["a Retry-After past the longest wait", { attempt: 1, status: 429, retryAfterMs: 10_001 }, false],
    ["a 200", { attempt: 1, status: 200 }, false],
    ["a 422 (the event is invalid: asking again changes nothing)", { attempt: 1, status: 422 }, false],
    [
      "a 503 (the simulator never answers it to an emit)",
      { attempt: 1, status: 503, retryAfterMs: 1_000 },
      false,
    ],
  ])("%s: %s", (_, answer, expected) => {
    expect(shouldRetry(answer)).toBe(expected);
  });
});

describe("retryDelayMs and parseRetryAfter", () => {
  it.each<[string, CliAttempt, number, number]>([
    // [what, the answer, random(), the wait in ms]
    ["Retry-After given", { attempt: 3, status: 429, retryAfterMs: 1_000 }, 0.5, 1_000],
    ["first backoff, least jitter", { attempt: 1, status: 429 }, 0, 125],
    ["first backoff, most jitter", { attempt: 1, status: 429 }, 1, 250],
    ["backoff capped at maxDelayMs", { attempt: 9, status: 429 }, 1, CLI_RETRY_SETTINGS.maxDelayMs],
  ])("%s", (_, answer, random, expected) => {
    expect(retryDelayMs(answer, CLI_RETRY_SETTINGS, () => random)).toBe(expected);
  });

  it.each<[string | null, number | undefined]>([
    ["1", 1_000],
    [" 2 ", 2_000],
    [null, undefined],
    ["", undefined],
    ["soon", undefined],
    ["Thu, 01 Jan 1970 00:00:03 GMT", 3_000],
    ["Thu, 01 Jan 1970 00:00:00 GMT", 0],
  ])("Retry-After %j is %j ms", (value, expected) => {
    expect(parseRetryAfter(value, 0)).toBe(expected);
  });
});

/** How long the simulator waits for each held delivery, in milliseconds. */
const HELD_DELIVERY_TIMEOUT_MS = 5_000;

describe("trigger when the simulator is busy", () => {
  it(`asks again after the 429 of a ${MAX_CONCURRENT_EMITS + 1}th event in progress, and is accepted`, async () => {
    const receiver = await startReceiver();
    try {
      const sim = await startSim({
        deliveryCa: receiver.ca.caPem,
        // Long enough that the 8 held deliveries still hold their slots when the 9th trigger first asks, on a
        // loaded machine too (1.5 s was not, at load average 20); short enough for its 10 retries of 1 s.
        switches: { deliveryAttempts: 1, deliveryTimeoutMs: HELD_DELIVERY_TIMEOUT_MS },
      });
      // The receiver holds the first MAX_CONCURRENT_EMITS deliveries until the simulator gives up on them.
      for (let i = 0; i < MAX_CONCURRENT_EMITS; i += 1) receiver.script.push("stall");
      const reply = await api(sim, "POST", "/webhook_subscriptions", {
        body: subs(["order_status_change", `${receiver.url}/orders`]),
      });
      expect(reply.status).toBe(200);
      const busy = Array.from({ length: MAX_CONCURRENT_EMITS }, () =>
        call(sim.baseUrl, "POST", "/__sim/events", { body: { kind: "order_status_change" } }),
      );
      await until(
        () => (receiver.arrivals.length === MAX_CONCURRENT_EMITS ? true : undefined),
        10_000,
        "the receiver to hold every delivery",
      );
      const lines: string[] = [];
      const command = parseClientCommand("trigger", ["order_status_change", "--url", sim.baseUrl], {});
      const status = await runClientCommand(command, (line) => lines.push(line));
      expect(lines[0]).toMatch(
        /^busy: 8 events or resends are in progress.*asking again in 1000 ms \(retry 1 of 10\)$/,
      );
      expect(lines.at(-1)).toBe("accepted by the receiver");
      expect(status).toBe(EXIT_ACCEPTED);
      expect((await Promise.all(busy)).map((r) => r.status)).toEqual(Array(MAX_CONCURRENT_EMITS).fill(200));
    } finally {
      await receiver.close();
    }
  });
});
