/**
 * How long `trigger` / `resend` wait (review of issue 29's simulator, defect 2): the worst case the
 * simulator's switches allow for the command, and when that runs out, a message that says the simulator is
 * still delivering and where to follow it, not that it cannot be reached.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_NOT_ACCEPTED, parseClientCommand, runClientCommand } from "../../simulator/cliTrigger";
import { WAIT_MARGIN_MS, worstCaseMs } from "../../simulator/cliWait";
import { MAX_EVENT_COUNT } from "../../simulator/constants";
import { api, startSim, subs } from "./helpers";
import { startReceiver, type TestReceiver } from "./httpsReceiver";

let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

describe("the wait of trigger and resend", () => {
  it("covers the worst case of the switches: 19 min per delivery at their maximums, doubled by duplicates, times the deliveries", () => {
    const max = {
      deliveryAttempts: 10,
      deliveryTimeoutMs: 60_000,
      deliveryBackoffMs: 60_000,
      deliveryDuplicates: 1,
      eventsPerDelivery: 1,
    };
    const oneDelivery = 10 * 60_000 + 9 * 60_000;
    expect(oneDelivery).toBe(19 * 60_000);
    expect(worstCaseMs(max, 1, false)).toBe(oneDelivery + WAIT_MARGIN_MS);
    expect(worstCaseMs(max, 1, true)).toBe(2 * oneDelivery + WAIT_MARGIN_MS);
    expect(worstCaseMs(max, MAX_EVENT_COUNT, true)).toBe(200 * oneDelivery + WAIT_MARGIN_MS);
    const defaults = { ...max, deliveryAttempts: 3, deliveryTimeoutMs: 5_000, deliveryBackoffMs: 1_000 };
    expect(worstCaseMs({ ...defaults, deliveryDuplicates: 0, eventsPerDelivery: 10 }, 25, true)).toBe(
      3 * (15_000 + 1_000 + 2_000) + WAIT_MARGIN_MS,
    );
  });

  it("says the simulator is still delivering, and where to follow it, when the wait runs out", async () => {
    const sim = await startSim({
      deliveryCa: receiver.ca.caPem,
      switches: { deliveryAttempts: 1, deliveryTimeoutMs: 3_000 },
    });
    await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", `${receiver.url}/o`]),
    });
    receiver.script.push("stall");
    const lines: string[] = [];
    const command = parseClientCommand("trigger", ["order_status_change", "--url", sim.baseUrl], {});
    expect(await runClientCommand(command, (line) => lines.push(line), 200)).toBe(EXIT_NOT_ACCEPTED);
    const text = lines.join("\n");
    expect(text).toMatch(/the simulator is still delivering after 200 ms/);
    expect(text).toContain(`GET ${sim.baseUrl}/__sim/deliveries`);
    expect(text).not.toContain("cannot reach");
  });

  it("still says it cannot reach the simulator when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lines: string[] = [];
    const url = `http://127.0.0.1:${port}`;
    const command = parseClientCommand("resend", ["x", "--url", url], {});
    expect(await runClientCommand(command, (line) => lines.push(line))).toBe(EXIT_NOT_ACCEPTED);
    expect(lines.join("\n")).toContain(`cannot reach the simulator at ${url} (ECONNREFUSED)`);
  });
});
