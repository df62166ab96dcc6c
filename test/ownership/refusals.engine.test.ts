/**
 * Refusals through the real CLI, one of each kind: what the engine adds to the provider's refusal. It fails
 * the command on the resource it is about, with the provider's message; it writes nothing and keeps the state;
 * a failed `up` still records its configuration, which refresh and destroy then use; and the way out works.
 * Each kind's cases (every command, both shop_id modes, faults) run fast beside this file (repointing,
 * keySwap and shopEntries.test.ts) and in test/pin/pin.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { RunningSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { engine, subscriptionResources } from "../support/engine";
import { outOfBand } from "../support/outOfBand";
import { scenario } from "../support/scenario";
import { GLOBEX_KEY } from "../support/shops";

const ORDERS = "order_status_change";
const SHIPMENTS = "shipment_status_change";
const URL = "https://hooks.example.com/o";

type Run = Awaited<ReturnType<typeof scenario>>;

/** The error of a command that must fail. */
async function refused(operation: Promise<unknown>, what: string): Promise<string> {
  const outcome = await engine(operation, what).then(
    () => "succeeded",
    (error: unknown) => String(error),
  );
  expect(outcome, what).not.toBe("succeeded");
  return outcome;
}

/** What state records per subscription resource: name and id. */
async function recorded(run: Run): Promise<Array<[string | undefined, number]>> {
  return subscriptionResources(await run.stack.exportStack()).map((r) => [
    r.urn.split("::").pop(),
    Number(r.id),
  ]);
}

const writes = (sim: RunningSimulator) => sim.requests().filter((r) => r.method !== "GET");

/** The simulator of this file, reset before each test (and its switches set back). */
const simulator = useAcmeSimulator();
/** A second API of the shops, where the re-pointing test points the stack. */
const secondSimulator = useAcmeSimulator();

describe("a refusal fails the command on its resource, writes nothing and keeps the state", () => {
  it("re-pointing: preview, up, refresh and destroy refuse naming both APIs; set back, up changes nothing", async () => {
    const staging = simulator.sim;
    const production = secondSimulator.sim;
    const run = await scenario(staging, [{ name: "orders", hook: ORDERS, url: URL }], "refuse-repoint");
    await engine(run.stack.up(), "up");
    const before = await recorded(run);
    const deployed = writes(staging).length;
    await run.stack.setConfig("shipping:baseUrl", { value: production.baseUrl });
    // `up` is refused, but records the new configuration: refresh and destroy run with it.
    for (const [what, command] of [
      ["preview", () => run.stack.preview()],
      ["up", () => run.stack.up()],
      ["refresh", () => run.stack.refresh()],
      ["destroy", () => run.stack.destroy()],
    ] as const) {
      const error = await refused(command(), what);
      expect(error, what).toMatch(
        new RegExp(
          `orders.*shipping:baseUrl: the default shop now reaches ${production.baseUrl}, but subscription \\d+ \\(${ORDERS}\\) was created at ${staging.baseUrl}`,
        ),
      );
    }
    expect(writes(production)).toEqual([]);
    expect(writes(staging).slice(deployed)).toEqual([]);
    expect(await recorded(run)).toEqual(before);
    // The way out the message names: set it back and run `pulumi up`.
    await run.stack.setConfig("shipping:baseUrl", { value: staging.baseUrl });
    const up = await engine(run.stack.up(), "up (set back)");
    expect(up.summary.resourceChanges).toEqual({ same: 2 });
    expect(staging.subscriptions("acme").map((s) => s.id)).toEqual(before.map(([, id]) => id));
  });

  it("key swap: a failed up records the other shop's key, and destroy's question (a DELETE answered 403) refuses", async () => {
    const sim = simulator.withSwitches({ shopFields: "listed" });
    const run = await scenario(sim, [{ name: "orders", hook: ORDERS, url: URL }], "refuse-keyswap");
    await engine(run.stack.up(), "up");
    const acme = sim.subscriptions("acme");
    await run.stack.setConfig("shipping:apiKey", { value: GLOBEX_KEY, secret: true });
    const up = await refused(run.stack.up(), "up with globex's key");
    expect(up).toMatch(/orders.*shipping:apiKey: the default shop now lists no subscription at all/);
    const destroy = await refused(run.stack.destroy(), "destroy with globex's key");
    expect(destroy).toMatch(
      /orders.*shipping:apiKey: subscription \d+ \(order_status_change\) is not in the default shop's listing, and the service answers that it belongs to another shop/,
    );
    expect(
      sim
        .requests()
        .filter((r) => r.method === "DELETE")
        .map((r) => r.status),
    ).toEqual([403]);
    expect(sim.subscriptions("acme")).toEqual(acme);
    expect(sim.subscriptions("globex")).toEqual([]);
    expect((await recorded(run)).map(([, id]) => id)).toEqual(acme.map((s) => s.id));
  });

  it("pin: after a key swap, an added resource fails its input check in preview and up, naming the pin", async () => {
    const sim = simulator.withSwitches({ shopFields: "listed" });
    await outOfBand(sim.baseUrl, GLOBEX_KEY, (api) =>
      api.create([{ hook: SHIPMENTS, url: "https://globex.example.com/s" }]),
    );
    const run = await scenario(sim, [{ name: "orders", hook: ORDERS, url: URL }], "refuse-pin");
    await run.stack.setConfig("shipping:shopId", { value: "1" }); // acme's shop_id (the first seeded shop)
    await engine(run.stack.up(), "up pinned to acme");
    const before = {
      acme: sim.subscriptions("acme"),
      globex: sim.subscriptions("globex"),
      state: await recorded(run),
    };
    await run.stack.setConfig("shipping:apiKey", { value: GLOBEX_KEY, secret: true });
    run.state.declared = [
      ...run.state.declared,
      { name: "labels", hook: "shipment_label_created", url: URL },
    ];
    sim.clearRequests();
    for (const [what, command] of [
      ["preview", () => run.stack.preview()],
      ["up", () => run.stack.up()],
    ] as const) {
      const error = await refused(command(), what);
      expect(error, what).toMatch(
        /(orders|labels).*shipping:shopId: pins shop 1, but the service at .* reports shop 2 for the key in shipping:apiKey/,
      );
    }
    expect(writes(sim)).toEqual([]);
    expect({
      acme: sim.subscriptions("acme"),
      globex: sim.subscriptions("globex"),
      state: await recorded(run),
    }).toEqual(before);
  });

  it("entry gone: removing a shipping:shops entry with its resource fails that resource's delete, naming the entry", async () => {
    const sim = simulator.sim;
    const run = await scenario(
      sim,
      [
        { name: "orders", hook: ORDERS, url: URL },
        { name: "globex-orders", hook: ORDERS, url: "https://hooks.example.com/g", shop: "globex" },
      ],
      "refuse-entry",
    );
    await run.stack.setConfig("shipping:shops", {
      value: JSON.stringify({ globex: { apiKey: GLOBEX_KEY } }),
      secret: true,
    });
    await engine(run.stack.up(), "up");
    const globex = sim.subscriptions("globex");
    await run.stack.removeConfig("shipping:shops");
    run.state.declared = [{ name: "orders", hook: ORDERS, url: URL }];
    const up = await refused(run.stack.up(), "up without the entry");
    expect(up).toMatch(
      /globex-orders.*shipping:shops: subscription \d+ \(order_status_change\) was created with shop entry "globex" at http:\/\/127\.0\.0\.1:\d+, and that entry is gone/,
    );
    expect(sim.subscriptions("globex")).toEqual(globex);
    expect(sim.subscriptions("acme").map((s) => s.hook)).toEqual([ORDERS]);
    expect((await recorded(run)).map(([name]) => name).sort()).toEqual(["globex-orders", "orders"]);
  });
});
