/**
 * The delivery behaviours the spec leaves open, one switch each: attempts and backoff, what counts as a
 * failure, the timeout, duplicates with the same or a new delivery id, and resend; plus what a person
 * following the deliveries sees (records with headers, duration and the receiver's answer; one line each).
 */
import { describe, expect, it } from "vitest";
import { formatAttempt } from "../../simulator/deliveryFormat";
import type { Delivery, Emitted, RunningSimulator, SimEvent, Switches } from "../../simulator/index";
import { api, b64, call, RW_KEY, startSim, subs } from "./helpers";
import { useReceiver } from "./httpsReceiver";

const receiver = useReceiver();

const ORDER: SimEvent = { kind: "order_status_change", uuid: "0b7d3c1e-3f8a-4c55-9a53-6a0e2f1d9b10" };

async function subscribed(
  switches: Partial<Switches>,
  onDelivery?: (attempt: Delivery) => void,
): Promise<RunningSimulator> {
  const sim = await startSim({
    deliveryCa: receiver.ca.caPem,
    switches: { deliveryBackoffMs: 0, ...switches },
    ...(onDelivery === undefined ? {} : { onDelivery }),
  });
  await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(["order_status_change", `${receiver.url}/o`]),
  });
  return sim;
}

async function sent(sim: RunningSimulator, event: SimEvent = ORDER): Promise<Emitted> {
  const result = await sim.emit(event);
  if (!result.delivered) throw new Error(`not delivered: ${result.reason}`);
  return result;
}

const deliveryIdsArrived = (): unknown[] => receiver.arrivals.map((a) => a.headers["x-shipping-delivery-id"]);

describe("attempts, backoff and what counts as a failure", () => {
  it("retries a failed delivery with the same id and body until accepted, waiting the doubling backoff", async () => {
    const sim = await subscribed({ deliveryAttempts: 3, deliveryBackoffMs: 40 });
    receiver.script.push({ status: 503 }, { status: 500 });
    const result = await sent(sim);
    expect(result.accepted).toBe(true);
    expect(result.attempts.map((a) => [a.attempt, a.maxAttempts, a.status, a.result, a.retryInMs])).toEqual([
      [1, 3, 503, "refused", 40],
      [2, 3, 500, "refused", 80],
      [3, 3, 200, "accepted", undefined],
    ]);
    expect(new Set(deliveryIdsArrived())).toEqual(new Set(result.deliveryIds));
    expect(new Set(receiver.arrivals.map((a) => a.text)).size).toBe(1);
    const started = result.attempts.map((a) => Date.parse(a.at));
    expect((started[1] ?? 0) - (started[0] ?? 0)).toBeGreaterThanOrEqual(40);
    expect((started[2] ?? 0) - (started[1] ?? 0)).toBeGreaterThanOrEqual(80);
  });

  it("gives up after deliveryAttempts", async () => {
    const sim = await subscribed({ deliveryAttempts: 2 });
    receiver.script.push({ status: 500 }, { status: 500 }, { status: 200 });
    const result = await sent(sim);
    expect(result.accepted).toBe(false);
    expect(result.attempts.map((a) => a.status)).toEqual([500, 500]);
    expect(receiver.arrivals).toHaveLength(2);
  });

  it.each([
    ["non-2xx", 404, ["refused", "accepted"]],
    ["non-2xx", 302, ["refused", "accepted"]],
    ["5xx", 404, ["accepted"]],
    ["5xx", 502, ["refused", "accepted"]],
  ] as const)("deliveryFailure %s: a %i is %j", async (failure, status, results) => {
    const sim = await subscribed({ deliveryAttempts: 2, deliveryFailure: failure });
    receiver.script.push({ status });
    const result = await sent(sim);
    expect(result.attempts.map((a) => a.result)).toEqual(results);
  });

  it("names a timeout as a timeout, and retries it", async () => {
    const sim = await subscribed({ deliveryAttempts: 2, deliveryTimeoutMs: 300 });
    receiver.script.push("stall");
    const result = await sent(sim);
    const [first, second] = result.attempts;
    expect(first).toMatchObject({ result: "timeout", error: "timeout: no answer within 300 ms" });
    expect(first?.status).toBeUndefined();
    expect(first?.durationMs).toBeGreaterThanOrEqual(290);
    expect(second).toMatchObject({ result: "accepted", status: 200 });
  });
});

describe("duplicates", () => {
  it("deliveryDuplicates 1 with the same id: each delivery arrives twice, alike", async () => {
    const sim = await subscribed({ deliveryDuplicates: 1, duplicateDeliveryId: "same" });
    const result = await sent(sim);
    expect(receiver.arrivals).toHaveLength(2);
    expect(result.deliveryIds[0]).toBe(result.deliveryIds[1]);
    expect(deliveryIdsArrived()).toEqual(result.deliveryIds);
    expect(receiver.arrivals[0]?.text).toBe(receiver.arrivals[1]?.text);
    expect(result.attempts.map((a) => a.send)).toEqual(["event", "duplicate"]);
  });

  it("with a new id: the same body under another delivery id", async () => {
    const sim = await subscribed({ deliveryDuplicates: 1, duplicateDeliveryId: "new" });
    const result = await sent(sim);
    expect(new Set(deliveryIdsArrived()).size).toBe(2);
    expect(receiver.arrivals[0]?.text).toBe(receiver.arrivals[1]?.text);
    expect(result.deliveryIds).toEqual(deliveryIdsArrived());
  });

  it("a rate of 0.5 duplicates every other delivery", async () => {
    const sim = await subscribed({ deliveryDuplicates: 0.5 });
    for (let i = 0; i < 4; i++) await sent(sim);
    expect(sim.deliveries().map((d) => d.send)).toEqual([
      "event",
      "duplicate",
      "event",
      "event",
      "duplicate",
      "event",
    ]);
  });
});

describe("resend", () => {
  it("sends a logged delivery again with its id and body, over POST /__sim/resend", async () => {
    const sim = await subscribed({ deliveryAttempts: 1 });
    const first = await sent(sim);
    const id = first.deliveryIds[0] ?? "";
    const reply = await call(sim.baseUrl, "POST", "/__sim/resend", { body: { id } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ delivered: true, accepted: true, deliveryIds: [id] });
    expect(deliveryIdsArrived()).toEqual([id, id]);
    expect(receiver.arrivals[0]?.text).toBe(receiver.arrivals[1]?.text);
    expect(sim.deliveries().map((d) => d.send)).toEqual(["event", "resend"]);
  });

  it("answers 404 for a delivery id the log does not hold, 422 for one that is no id", async () => {
    const sim = await subscribed({});
    const unknown = await call(sim.baseUrl, "POST", "/__sim/resend", {
      body: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(unknown.status).toBe(404);
    expect((unknown.json as { message: string }).message).toMatch(/not in the delivery log/);
    const bad = await call(sim.baseUrl, "POST", "/__sim/resend", { body: { id: "x" } });
    expect(bad.status).toBe(422);
    expect((bad.json as { message: string }).message).toMatch(/id: must be a delivery id/);
  });
});

describe("following the deliveries", () => {
  it("records the headers sent with the key redacted, the duration and the start of the answer", async () => {
    const sim = await subscribed({ deliveryAttempts: 1 });
    receiver.script.push({ status: 202, body: `ok ${b64(RW_KEY)} ${"y".repeat(3_000)}` });
    const [attempt] = (await sent(sim)).attempts;
    expect(attempt?.headers).toEqual({
      "content-type": "application/json; charset=utf-8",
      "content-length": String(receiver.arrivals[0]?.text.length),
      "user-agent": "ShippingServiceSimulator/1",
      "x-shipping-hook": "order_status_change",
      "x-shipping-delivery-id": attempt?.id,
      "x-shipping-api-key": "[REDACTED]",
    });
    expect(attempt?.status).toBe(202);
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(0);
    expect(attempt?.response?.startsWith("ok [REDACTED] yyy")).toBe(true);
    expect(attempt?.response?.length).toBeLessThanOrEqual(1_024);
    expect(JSON.stringify(sim.deliveries())).not.toContain(b64(RW_KEY));
  });

  it("tells onDelivery about each attempt; formatAttempt makes the line the CLI prints", async () => {
    const seen: Delivery[] = [];
    const sim = await subscribed({ deliveryAttempts: 2, deliveryBackoffMs: 5 }, (d) => seen.push(d));
    receiver.script.push({ status: 503 });
    const result = await sent(sim);
    expect(seen).toEqual(result.attempts);
    const host = new URL(receiver.url).host;
    const id = result.deliveryIds[0];
    expect(formatAttempt(seen[0] as Delivery)).toMatch(
      new RegExp(
        `^order_status_change shop=demo id=${id} -> ${host} attempt 1/2: 503 refused \\(\\d+ ms\\); retry in 5 ms$`,
      ),
    );
    expect(formatAttempt(seen[1] as Delivery)).toMatch(/attempt 2\/2: 200 accepted \(\d+ ms\)$/);
  });

  it("GET /__sim/deliveries streams the records, equal to deliveries()", async () => {
    const sim = await subscribed({ deliveryAttempts: 1 });
    for (let i = 0; i < 3; i++) await sent(sim);
    const reply = await call(sim.baseUrl, "GET", "/__sim/deliveries");
    expect(reply.headers["transfer-encoding"]).toBe("chunked");
    expect(reply.json).toEqual(sim.deliveries());
    expect(sim.deliveries()).toHaveLength(3);
  });
});
