/**
 * The answer of POST /__sim/events and /__sim/resend (review of issue 29's simulator, defect 1): a summary
 * without the attempts' bodies and headers, streamed, and at most MAX_CONCURRENT_EMITS of them in progress
 * (the next gets 429 with Retry-After), so a crowd of callers that never read cannot hold the process's memory.
 */
import { describe, expect, it } from "vitest";
import { MAX_CONCURRENT_EMITS } from "../../simulator/constants";
import type { EmittedSummary, RunningSimulator } from "../../simulator/index";
import { api, call, expectErrorShape, type Reply, startSim, subs, until } from "./helpers";
import { useReceiver } from "./httpsReceiver";

const receiver = useReceiver();

const ORDER = { kind: "order_status_change" };

async function subscribed(deliveryTimeoutMs = 5_000): Promise<RunningSimulator> {
  const sim = await startSim({
    deliveryCa: receiver.ca.caPem,
    switches: { deliveryBackoffMs: 0, deliveryAttempts: 2, deliveryTimeoutMs },
  });
  await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(["order_status_change", `${receiver.url}/o`]),
  });
  return sim;
}

describe("POST /__sim/events and /__sim/resend answer a summary", () => {
  it("lists the attempts without bodies or headers, streamed; the delivery log keeps them whole", async () => {
    const sim = await subscribed();
    receiver.script.push({ status: 503, body: "busy" });
    const reply = await call(sim.baseUrl, "POST", "/__sim/events", { body: { ...ORDER, count: 3 } });
    expect(reply.status).toBe(200);
    expect(reply.headers["transfer-encoding"]).toBe("chunked");
    const sent = reply.json as EmittedSummary;
    expect(sent).toMatchObject({ delivered: true, accepted: true });
    expect(sent.attempts.map((a) => [a.attempt, a.status, a.result, a.response])).toEqual([
      [1, 503, "refused", "busy"],
      [2, 200, "accepted", ""],
    ]);
    for (const attempt of sent.attempts) expect(Object.keys(attempt)).not.toContain("body");
    for (const attempt of sent.attempts) expect(Object.keys(attempt)).not.toContain("headers");
    expect(sim.deliveries().map((d) => (d.body as { data: { hooks: unknown[] } }).data.hooks.length)).toEqual(
      [3, 3],
    );
    const again = await call(sim.baseUrl, "POST", "/__sim/resend", { body: { id: sent.deliveryIds[0] } });
    expect(again.status).toBe(200);
    expect((again.json as EmittedSummary).attempts.map((a) => Object.hasOwn(a, "body"))).toEqual([false]);
  });

  it(`answers 429 with Retry-After while ${MAX_CONCURRENT_EMITS} events are in progress, and takes the next once one ends`, async () => {
    const sim = await subscribed(1_500);
    receiver.script.push(...Array.from({ length: MAX_CONCURRENT_EMITS * 2 }, () => "stall" as const));
    const pending: Array<Promise<Reply | Error>> = [];
    for (let i = 0; i < MAX_CONCURRENT_EMITS; i++) {
      pending.push(
        call(sim.baseUrl, "POST", "/__sim/events", { body: ORDER }).catch((error: Error) => error),
      );
    }
    await until(
      () => (receiver.arrivals.length >= MAX_CONCURRENT_EMITS ? true : undefined),
      10_000,
      "every event's first attempt at the receiver",
    );
    const refused = await call(sim.baseUrl, "POST", "/__sim/events", { body: ORDER });
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(expectErrorShape(refused).message).toMatch(/events or resends are in progress/);
    const resend = await call(sim.baseUrl, "POST", "/__sim/resend", {
      body: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(resend.status).toBe(429);
    // Reads are not held up by the events in progress.
    expect((await call(sim.baseUrl, "GET", "/__sim/state")).status).toBe(200);
    const done = await Promise.all(pending);
    expect(done.map((r) => (r instanceof Error ? r.message : r.status))).toEqual(
      Array.from({ length: MAX_CONCURRENT_EMITS }, () => 200),
    );
    receiver.script.length = 0;
    const next = await call(sim.baseUrl, "POST", "/__sim/events", { body: ORDER });
    expect(next.status).toBe(200);
    expect(next.json).toMatchObject({ delivered: true, accepted: true });
  });
});
