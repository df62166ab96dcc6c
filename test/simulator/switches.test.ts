import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SWITCHES, InvalidInputError } from "../../simulator/index";
import { api, call, startSim, subs } from "./helpers";

const A = "https://example.com/a";
const B = "https://example.com/b";

/**
 * The defaults as simulator/README.md states them, with why (its Switches table): the one place a reader
 * looks them up, so the test takes them from there rather than from a copy of its own.
 */
function documentedDefaults(): Record<string, unknown> {
  const readme = readFileSync(join(__dirname, "..", "..", "simulator", "README.md"), "utf8");
  const table = readme.slice(readme.indexOf("## Switches"), readme.indexOf("## Faults"));
  const rows = table.split("\n").flatMap((line) => {
    const cells = line.split("|").map((cell) => cell.trim());
    const [name, value] = [cells[1] ?? "", cells[3] ?? ""].map((cell) => /^`([^`]*)`$/.exec(cell)?.[1]);
    return name === undefined || value === undefined ? [] : [[name, value] as const];
  });
  const typed = (value: string): unknown =>
    /^\d+$/.test(value) ? Number(value) : value === "true" || value === "false" ? value === "true" : value;
  return Object.fromEntries(rows.map(([name, value]) => [name, typed(value)]));
}

describe("defaults", () => {
  it("are the ones simulator/README.md states, one row for every switch", async () => {
    const documented = documentedDefaults();
    const sim = await startSim();
    expect(sim.switches()).toEqual(documented);
    expect(DEFAULT_SWITCHES).toEqual(documented);
  });
});

describe("getStatus", () => {
  it.each([200, 201] as const)("GET answers %i on the list and by ids", async (getStatus) => {
    const sim = await startSim({ switches: { getStatus } });
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    expect((await api(sim, "GET", "/webhook_subscriptions")).status).toBe(getStatus);
    expect((await api(sim, "GET", "/webhook_subscriptions/1")).status).toBe(getStatus);
    // POST stays 200 whatever the GET status is.
    expect(
      (await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", B]) })).status,
    ).toBe(200);
  });

  it("can be changed at run time", async () => {
    const sim = await startSim();
    sim.setSwitches({ getStatus: 201 });
    expect((await api(sim, "GET", "/webhook_subscriptions")).status).toBe(201);
  });
});

describe("overwrite", () => {
  it("new-id: re-posting a hook removes the old subscription and assigns a fresh id", async () => {
    const sim = await startSim({ switches: { overwrite: "new-id" } });
    await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", A], ["shipment_label_created", A]),
    });
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", B]),
    });
    expect(reply.json).toEqual({ data: { ids: [{ id: 3 }] } });
    expect(sim.subscriptions("demo")).toEqual([
      { id: 2, hook: "shipment_label_created", url: A },
      { id: 3, hook: "order_status_change", url: B },
    ]);
    expect((await api(sim, "GET", "/webhook_subscriptions/1")).status).toBe(404);
  });

  it("new-id: even an identical re-post gets a new id", async () => {
    const sim = await startSim();
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", A]),
    });
    expect(reply.json).toEqual({ data: { ids: [{ id: 2 }] } });
    expect(sim.subscriptions("demo")).toEqual([{ id: 2, hook: "order_status_change", url: A }]);
  });

  it("keep-id: re-posting a hook replaces its url and keeps its id", async () => {
    const sim = await startSim({ switches: { overwrite: "keep-id" } });
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["shipment_status_change", A], ["order_status_change", B]),
    });
    expect(reply.json).toEqual({ data: { ids: [{ id: 2 }, { id: 1 }] } });
    expect(sim.state()).toEqual({
      nextId: 3,
      shops: {
        demo: [
          { id: 1, hook: "order_status_change", url: B },
          { id: 2, hook: "shipment_status_change", url: A },
        ],
      },
    });
  });
});

describe("setSwitches and PATCH /__sim/switches", () => {
  it("PATCH merges a partial object and answers the result", async () => {
    const sim = await startSim();
    const reply = await call(sim.baseUrl, "PATCH", "/__sim/switches", {
      body: { overwrite: "keep-id", rateLimit: { windowMs: 1000, post: 1, get: 2, delete: 3 } },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      ...DEFAULT_SWITCHES,
      overwrite: "keep-id",
      rateLimit: { windowMs: 1000, post: 1, get: 2, delete: 3 },
    });
    expect((await call(sim.baseUrl, "GET", "/__sim/switches")).json).toEqual(sim.switches());
  });

  it.each([
    [{ authScheme: "token" }, "authScheme"],
    [{ getStatus: 204 }, "getStatus"],
    [{ overwrite: "replace" }, "overwrite"],
    [{ rateLimit: "on" }, "rateLimit"],
    [{ rateLimit: { windowMs: 0, post: 1, get: 1, delete: 1 } }, "rateLimit"],
    [{ retryAfter: "yes" }, "retryAfter"],
    [{ deliveryAttempts: 0 }, "deliveryAttempts"],
    [{ deliveryAttempts: 11 }, "deliveryAttempts"],
    [{ deliveryBackoffMs: -1 }, "deliveryBackoffMs"],
    [{ deliveryBackoffMs: 60_001 }, "deliveryBackoffMs"],
    [{ deliveryFailure: "4xx" }, "deliveryFailure"],
    [{ deliveryTimeoutMs: 0 }, "deliveryTimeoutMs"],
    [{ deliveryDuplicates: 1.5 }, "deliveryDuplicates"],
    [{ duplicateDeliveryId: "other" }, "duplicateDeliveryId"],
    [{ eventsPerDelivery: 101 }, "eventsPerDelivery"],
    [{ eventField: true }, "eventField"],
    [{ unknown: true }, "unknown"],
  ])("rejects %j naming the field", async (patch, field) => {
    const sim = await startSim();
    const reply = await call(sim.baseUrl, "PATCH", "/__sim/switches", { body: patch });
    expect(reply.status).toBe(422);
    expect((reply.json as { message: string }).message).toContain(field);
    expect(() => sim.setSwitches(patch as never)).toThrow(InvalidInputError);
    await expect(startSim({ switches: patch as never })).rejects.toThrow(field);
    expect(sim.switches()).toEqual(DEFAULT_SWITCHES);
  });

  it("switches() answers a copy", async () => {
    const sim = await startSim({ switches: { rateLimit: { windowMs: 10, post: 1, get: 1, delete: 1 } } });
    const copy = sim.switches();
    if (typeof copy.rateLimit === "object") copy.rateLimit.get = 99;
    expect(sim.switches().rateLimit).toEqual({ windowMs: 10, post: 1, get: 1, delete: 1 });
  });
});
