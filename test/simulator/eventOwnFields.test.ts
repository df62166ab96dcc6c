/**
 * An event's own payload fields given in `set` (review of issue 29's simulator, defect 3, and the smaller
 * findings): checked by the event field's rule whatever their JSON type, over HTTP and from
 * `shipping-api-sim trigger --set`, with the field, the rule and the fix named; `__proto__` refused; ids past
 * Number.MAX_SAFE_INTEGER refused; a negative flag value gets the flag's own rule.
 */
import { describe, expect, it } from "vitest";
import { parseCli, UsageError } from "../../simulator/cliArgs";
import { EXIT_INVALID_EVENT, parseClientCommand, runClientCommand } from "../../simulator/cliTrigger";
import type { RunningSimulator } from "../../simulator/index";
import { api, call, expectErrorShape, startSim, subs } from "./helpers";
import { useReceiver } from "./httpsReceiver";

const receiver = useReceiver();

async function subscribed(): Promise<RunningSimulator> {
  const sim = await startSim({ deliveryCa: receiver.ca.caPem, switches: { deliveryAttempts: 1 } });
  await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(
      ["shipment_status_change", `${receiver.url}/s`],
      ["shipment_label_created", `${receiver.url}/l`],
    ),
  });
  return sim;
}

async function refusal(sim: RunningSimulator, body: unknown): Promise<string> {
  const reply = await call(sim.baseUrl, "POST", "/__sim/events", { body });
  expect(reply.status).toBe(422);
  return expectErrorShape(reply).message;
}

const SHIPMENT = "shipment_status_change";
const LABEL = "shipment_label_created";

describe("own fields in set, over HTTP", () => {
  it.each([
    [SHIPMENT, "status", "bogus", /set\.status: must be a known shipment status.*"bogus".*e\.g\. status=3/],
    [SHIPMENT, "status", 25, /set\.status: must be a known shipment status/],
    [SHIPMENT, "shipment_id", "abc", /set\.shipment_id: must be a positive integer.*e\.g\. shipment_id=77/],
    [SHIPMENT, "order_id", 5, /set\.order_id: must be a string of 1-64 characters, or null/],
    [LABEL, "shipment_ids", 5, /set\.shipment_ids: must be an array of 1-1000 positive integers/],
    [LABEL, "status", 7, /set\.status: must be "success" or "failed" \(got 7\)/],
  ])("%s set.%s = %j is a 422 naming the field, the rule and the fix", async (kind, field, value, words) => {
    const sim = await subscribed();
    expect(await refusal(sim, { kind, set: { [field]: value } })).toMatch(words);
    expect(receiver.arrivals).toEqual([]);
  });

  it("a valid own field sets the event, so what derives from it follows", async () => {
    const sim = await subscribed();
    const reply = await call(sim.baseUrl, "POST", "/__sim/events", {
      body: { kind: SHIPMENT, set: { shipment_id: 77, order_id: null, note: "n" } },
    });
    expect(reply.status).toBe(200);
    const hooks = JSON.parse(receiver.arrivals[0]?.text ?? "{}").data.hooks;
    expect(hooks[0]).toMatchObject({
      shipment_id: 77,
      barcode: "3SSIM0000000077",
      order_id: null,
      note: "n",
    });
  });

  it("refuses __proto__ in set, and an own field given both ways", async () => {
    const sim = await subscribed();
    const proto = await call(sim.baseUrl, "POST", "/__sim/events", {
      body: `{"kind":"${SHIPMENT}","set":{"__proto__":{"x":1}}}`,
      headers: { "content-type": "application/json" },
    });
    expect(proto.status).toBe(422);
    expect(expectErrorShape(proto).message).toMatch(/set\.__proto__: must be a field name/);
    expect(await refusal(sim, { kind: SHIPMENT, shipmentId: 5, set: { shipment_id: 6 } })).toMatch(
      /set\.shipment_id and shipmentId both give/,
    );
  });

  it("refuses ids that would pass Number.MAX_SAFE_INTEGER with the count", async () => {
    const sim = await subscribed();
    const max = Number.MAX_SAFE_INTEGER;
    expect(await refusal(sim, { kind: SHIPMENT, shipmentId: max, count: 2 })).toMatch(
      /shipmentId: with count 2 the last shipment id would pass 9007199254740991/,
    );
    expect(await refusal(sim, { kind: LABEL, shipmentIds: [max - 1], count: 3 })).toMatch(
      /shipmentIds: with count 3/,
    );
    expect(receiver.arrivals).toEqual([]);
  });
});

describe("trigger --set, and negative flag values", () => {
  it.each([
    [SHIPMENT, "status=bogus", /set\.status: must be a known shipment status/],
    [SHIPMENT, "shipment_id=abc", /set\.shipment_id: must be a positive integer/],
    [LABEL, "shipment_ids=5", /set\.shipment_ids: must be an array/],
    [LABEL, "status=7", /set\.status: must be "success" or "failed"/],
    [SHIPMENT, "__proto__=1", /set\.__proto__: must be a field name/],
  ])("trigger %s --set %s exits 2 and says why", async (hook, assignment, words) => {
    const sim = await subscribed();
    const lines: string[] = [];
    const command = parseClientCommand("trigger", [hook, "--set", assignment, "--url", sim.baseUrl], {});
    expect(await runClientCommand(command, (line) => lines.push(line))).toBe(EXIT_INVALID_EVENT);
    expect(lines.join("\n")).toMatch(words);
    expect(receiver.arrivals).toEqual([]);
  });

  it("a negative value gets the flag's rule, not parseArgs's 'ambiguous'", () => {
    expect(() => parseCli(["--delivery-backoff-ms", "-1"])).toThrow(
      /--delivery-backoff-ms must be an integer from 0 to 60000 \(got "-1"\)/,
    );
    expect(() => parseClientCommand("trigger", [SHIPMENT, "--count", "-1"], {})).toThrow(UsageError);
    expect(() => parseClientCommand("trigger", [SHIPMENT, "--count", "-1"], {})).toThrow(
      /--count must be an integer from 1 to 100/,
    );
  });
});
