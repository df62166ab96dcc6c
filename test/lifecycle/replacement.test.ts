/**
 * Replacements keep the hook subscribed. A URL change (create before delete) never leaves the hook without a
 * subscription (sampled every millisecond) and deletes nothing, under either overwrite behaviour; a hook
 * change subscribes the new hook and removes the old. `deleteBeforeReplace` with `up --replace` after
 * another create of the shop posts again rather than adopt the id it deleted, and a `deleteBeforeReplace`
 * delete racing a create of the same hook by another resource (either order, or at once) leaves the hook
 * subscribed with state id = live id. Run in the engine's order of calls (test/support/engineOrder.ts);
 * test/lifecycle/lifecycle.e2e.test.ts and test/lifecycle/replacement.engine.test.ts show both orders through the real CLI.
 */
import { describe, expect, it } from "vitest";
import type { RunningSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack, type UpOptions } from "../support/engineOrder";
import { configOf, deployed, LABELS, ORDERS, SHIPMENTS, THREE_HOOKS, writes } from "../support/services";

const acme = useAcmeSimulator();

/** The live subscriptions equal what the program declares and state records. */
function expectLiveIsDeclared(sim: RunningSimulator, stack: Stack, declared: readonly Declaration[]): void {
  const live = sim.subscriptions("acme");
  expect(live.map((s) => [s.hook, s.url]).sort()).toEqual(declared.map((d) => [d.hook, d.url]).sort());
  expect(stack.recorded()).toEqual(live);
}

describe("a replacement creates before it deletes", () => {
  it.each(["keep-id", "new-id"] as const)(
    "overwrite %s: a URL change leaves no gap and deletes nothing",
    async (overwrite) => {
      const { sim, stack } = await deployed(acme, THREE_HOOKS, { overwrite });
      const changed = THREE_HOOKS.map((d) =>
        d.hook === ORDERS ? { ...d, url: "https://hooks.example.com/o2" } : d,
      );
      sim.clearRequests();
      // Every answer 20 ms late: the deployment spans many samples, before, between and after its requests.
      sim.addFault({ kind: "latency", ms: 20, count: 100 });
      const samples: number[] = [];
      const sampler = setInterval(
        () => samples.push(sim.subscriptions("acme").filter((s) => s.hook === ORDERS).length),
        1,
      );
      const up = await stack.up(changed).finally(() => clearInterval(sampler));
      expect(up).toMatchObject({ ok: true, steps: { replace: 1, same: 2 } });
      // The sampler ran during the deployment (how often depends on the machine's load; any sample counts).
      expect(samples.length).toBeGreaterThan(0);
      expect(samples.every((count) => count === 1)).toBe(true);
      expect(writes(sim).filter((w) => w.startsWith("DELETE"))).toEqual([]); // nothing removed the hook
      expectLiveIsDeclared(sim, stack, changed);
      expect(await stack.preview(changed)).toMatchObject({ ok: true, steps: { same: 3, replace: 0 } });
    },
  );

  it("a hook change subscribes the new hook and removes the old one", async () => {
    const sim = acme.sim;
    const stack = new Stack(configOf(sim));
    expect((await stack.up([{ name: "events", hook: LABELS, url: "https://hooks.example.com/e" }])).ok).toBe(
      true,
    );
    const next: Declaration[] = [{ name: "events", hook: SHIPMENTS, url: "https://hooks.example.com/e" }];
    expect(await stack.up(next)).toMatchObject({ ok: true, steps: { replace: 1, delete: 1 } });
    expectLiveIsDeclared(sim, stack, next);
  });
});

describe("deleteBeforeReplace", () => {
  it("up --replace after another create of the same shop posts the replaced hook again instead of adopting the id it deleted", async () => {
    const sim = acme.sim;
    const orders: Declaration = {
      name: "orders",
      hook: ORDERS,
      url: "https://hooks.example.com/o",
      deleteBeforeReplace: true,
    };
    const stack = new Stack(configOf(sim));
    expect((await stack.up([orders])).ok).toBe(true);
    const program = [orders, { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" }];
    const up = await stack.up(program, { replace: ["orders"] });
    expect(up).toMatchObject({ ok: true, steps: { replace: 1, create: 1 } });
    expectLiveIsDeclared(sim, stack, program);
  });

  /** `a` (deleteBeforeReplace) moves from ORDERS to LABELS while `b` takes ORDERS, in one `up --refresh`. */
  const RACES: Array<[string, "keep-id" | "new-id", string, "a first" | "b first", UpOptions]> = [];
  for (const [overwrite, url] of [
    ["new-id", "https://hooks.example.com/o"], // b adopts a's subscription as it is
    ["keep-id", "https://other.example.com/o"], // b's POST keeps a's id
  ] as const) {
    RACES.push([`${overwrite}, at once`, overwrite, url, "a first", {}]);
    RACES.push([`${overwrite}, a's delete and create first`, overwrite, url, "a first", { parallel: 1 }]);
    RACES.push([`${overwrite}, b's create first`, overwrite, url, "b first", { parallel: 1 }]);
  }

  it.each(RACES)(
    "%s: a delete racing another resource's create of the same hook leaves the hook subscribed",
    async (_, overwrite, bUrl, order, options) => {
      const sim = acme.withSwitches({ overwrite });
      const stack = new Stack(configOf(sim));
      const a = { name: "a", hook: ORDERS, url: "https://hooks.example.com/o", deleteBeforeReplace: true };
      expect((await stack.up([a])).ok).toBe(true);
      const moved = { ...a, hook: LABELS, url: "https://hooks.example.com/l" };
      const b = { name: "b", hook: ORDERS, url: bUrl };
      const program = order === "a first" ? [moved, b] : [b, moved];
      expect((await stack.up(program, { refresh: true, ...options })).ok).toBe(true);
      expectLiveIsDeclared(sim, stack, program);
    },
  );
});
