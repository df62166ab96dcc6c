/**
 * Late and out-of-order delivery, to a real HTTPS receiver over loopback: an event held with `delayMs` arrives
 * after one emitted later was delivered, and a batch goes out reversed or shuffled by a seed; `trigger
 * --delay-ms --order --order-seed` asks for the same.
 */
import { describe, expect, it } from "vitest";
import { EXIT_ACCEPTED, parseClientCommand, runClientCommand } from "../../simulator/cliTrigger";
import { deliveryOrder } from "../../simulator/deliveryOrder";
import type { RunningSimulator, SimEvent } from "../../simulator/index";
import { api, call, startSim, subs, until } from "./helpers";
import { useReceiver } from "./httpsReceiver";

const receiver = useReceiver();
/** Hold of the late event: far longer than the other event's delivery takes, even on a loaded machine. */
const HOLD_MS = 3_000;
/** Longest wait for the held event to arrive. */
const ARRIVAL_DEADLINE_MS = HOLD_MS + 20_000;

async function subscribed(): Promise<RunningSimulator> {
  const sim = await startSim({
    deliveryCa: receiver.ca.caPem,
    switches: { deliveryBackoffMs: 0, eventsPerDelivery: 1 },
  });
  await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(["shipment_status_change", `${receiver.url}/s`]),
  });
  return sim;
}

/** The shipment ids of the arrivals, in the order they arrived. */
const arrivedIds = (): number[] =>
  receiver.arrivals.map(
    (a) =>
      (JSON.parse(a.text) as { data: { hooks: Array<{ shipment_id: number }> } }).data.hooks[0]
        ?.shipment_id ?? 0,
  );

describe("late delivery", () => {
  it("an event held with delayMs arrives after an event emitted later was delivered", async () => {
    const sim = await subscribed();
    const late: SimEvent = { kind: "shipment_status_change", shipmentId: 1, delayMs: HOLD_MS };
    const held = sim.emit(late);
    const prompt = await sim.emit({ kind: "shipment_status_change", shipmentId: 2 });
    expect(prompt).toMatchObject({ delivered: true, accepted: true });
    // When the later event was delivered, the held one had not arrived.
    expect(arrivedIds()).toEqual([2]);
    await until(
      () => (receiver.arrivals.length === 2 ? true : undefined),
      ARRIVAL_DEADLINE_MS,
      "the held event",
    );
    expect(await held).toMatchObject({ delivered: true, accepted: true });
    expect(arrivedIds()).toEqual([2, 1]);
    const [second, first] = sim.deliveries();
    expect(second?.at !== undefined && first?.at !== undefined && first.at >= second.at).toBe(true);
  });
});

/** The outcome of `pending` once it settles, or a failure after `timeoutMs` (polled, no sleep). */
async function settled<T>(pending: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let outcome: { value: T } | undefined;
  void pending.then((value) => {
    outcome = { value };
  });
  return (await until(() => outcome, timeoutMs, what)).value;
}

/**
 * Holds an event on a subscribed simulator, runs `meanwhile` on it, and returns the simulator and how the held
 * emit ended (polled, no sleep).
 */
async function holdThen(meanwhile: (sim: RunningSimulator) => Promise<void>) {
  const sim = await subscribed();
  const held = sim.emit({ kind: "shipment_status_change", shipmentId: 1, delayMs: HOLD_MS });
  await meanwhile(sim);
  return { sim, outcome: await settled(held, ARRIVAL_DEADLINE_MS, "the held emit") };
}

describe("a held event and reset or close", () => {
  it("POST /__sim/reset while an event is held: nothing is delivered, nothing logged, NotDelivered", async () => {
    const { sim, outcome } = await holdThen(async (sim) => {
      const reset = await call(sim.baseUrl, "POST", "/__sim/reset");
      expect(reset.status).toBe(204);
      expect(sim.subscriptions("demo")).toEqual([]);
    });
    expect(outcome).toEqual({ delivered: false, reason: "reset while held" });
    expect(receiver.arrivals).toEqual([]);
    expect(sim.deliveries()).toEqual([]);
  });

  it("an event held across a reset and a new subscription is still not delivered", async () => {
    const { sim, outcome } = await holdThen(async (sim) => {
      await sim.reset();
      await api(sim, "POST", "/webhook_subscriptions", {
        body: subs(["shipment_status_change", `${receiver.url}/s`]),
      });
    });
    expect(outcome).toEqual({ delivered: false, reason: "reset while held" });
    expect(receiver.arrivals).toEqual([]);
    expect(sim.deliveries()).toEqual([]);
  });

  it("close() while an event is held: NotDelivered, no delivery id that was never sent", async () => {
    const { outcome } = await holdThen((sim) => sim.close());
    expect(outcome).toEqual({ delivered: false, reason: "simulator closed while held" });
    expect(receiver.arrivals).toEqual([]);
  });
});

describe("out-of-order delivery of a batch", () => {
  it("reverse sends the last delivery first", async () => {
    const sim = await subscribed();
    await sim.emit({ kind: "shipment_status_change", shipmentId: 10, count: 4, order: "reverse" });
    expect(arrivedIds()).toEqual([13, 12, 11, 10]);
  });

  it("shuffled follows the seed: the same seed, the same order", async () => {
    const sim = await subscribed();
    const ids = [20, 21, 22, 23, 24];
    const expected = deliveryOrder(ids.length, "shuffled", 7).map((i) => ids[i]);
    expect(expected).not.toEqual(ids);
    const batch: SimEvent = {
      kind: "shipment_status_change",
      shipmentId: 20,
      count: 5,
      order: "shuffled",
      orderSeed: 7,
    };
    await sim.emit(batch);
    expect(arrivedIds()).toEqual(expected);
    receiver.arrivals.length = 0;
    await sim.emit(batch);
    expect(arrivedIds()).toEqual(expected);
  });

  it("is asked by trigger --order and --delay-ms; bad values are refused naming the flag", async () => {
    const sim = await subscribed();
    const lines: string[] = [];
    const args = ["shipment_status_change", "--set", "shipment_id=30", "--count", "3", "--order", "reverse"];
    const command = parseClientCommand("trigger", [...args, "--delay-ms", "10", "--url", sim.baseUrl], {});
    expect(command.body).toMatchObject({ order: "reverse", delayMs: 10 });
    expect(await runClientCommand(command, (line) => lines.push(line))).toBe(EXIT_ACCEPTED);
    expect(arrivedIds()).toEqual([32, 31, 30]);
    expect(() => parseClientCommand("trigger", ["order_status_change", "--order", "random"], {})).toThrow(
      '--order must be one of in-order, reverse, shuffled (got "random")',
    );
    expect(() => parseClientCommand("trigger", ["order_status_change", "--delay-ms", "60001"], {})).toThrow(
      '--delay-ms must be an integer from 0 to 60000 (got "60001")',
    );
    expect(() => parseClientCommand("trigger", ["order_status_change", "--order-seed", "-1"], {})).toThrow(
      /--order-seed must be an integer from 0 to 4294967295/,
    );
  });

  it("refuses a delay over a minute and an unknown order in emit, naming the field", async () => {
    const sim = await subscribed();
    await expect(sim.emit({ kind: "order_status_change", delayMs: 60_001 })).rejects.toThrow(/delayMs/);
    await expect(
      sim.emit({ kind: "order_status_change", order: "random" } as unknown as SimEvent),
    ).rejects.toThrow(/order/);
  });
});
