/**
 * A create never overwrites a live subscription of its hook made outside the stack unless the resource opts in
 * (`takeOver: true`): refused, nothing is written. With the opt-in it takes it over and says what it took:
 * its id and URL in the output `previous`, its id in `takenOver`, alone or with the creates of other hooks.
 * The latest `up` that declares a hook owns it: another stack's `destroy --refresh` (keep-id, where the
 * take-over keeps the id) leaves it. Run in the engine's order of calls (test/support/engineOrder.ts).
 */
import { describe, expect, it } from "vitest";
import type { RunningSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack } from "../support/engineOrder";
import { outOfBand } from "../support/outOfBand";
import { configOf, deployed, hooksIn, LABELS, ORDERS, SHIPMENTS, shops } from "../support/services";
import { ACME_KEY, ACME_SECOND_KEY } from "../support/shops";

const acme = useAcmeSimulator();

const ORDERS_DECLARED: Declaration = { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" };
const THREE: readonly Declaration[] = [
  { name: "shipments", hook: SHIPMENTS, url: "https://hooks.example.com/s" },
  { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
  ORDERS_DECLARED,
];

describe("a create takes over the live subscription of its hook", () => {
  it.each([
    ["alone", [ORDERS_DECLARED]],
    ["with two other hooks in the same up", THREE],
  ] as const)(
    "refuses a subscription that existed before the stack, declared %s; takeOver takes it over and records it",
    async (_, declared) => {
      const sim = acme.sim;
      const [oldId] = await outOfBand(sim.baseUrl, ACME_KEY, (api) =>
        api.create([{ hook: ORDERS, url: "https://legacy.example.com/o" }]),
      );
      const stack = new Stack(configOf(sim));
      const refused = await stack.up(declared);
      expect(refused.ok).toBe(false);
      expect(refused.errors.join("\n")).toMatch(
        new RegExp(
          `^orders: hook: ${ORDERS} of the default shop at \\S+ already has subscription ${oldId}, which calls another URL`,
          "m",
        ),
      );
      const orders = sim.subscriptions("acme").filter((s) => s.hook === ORDERS);
      expect(orders).toEqual([{ id: oldId, hook: ORDERS, url: "https://legacy.example.com/o" }]);
      const program = declared.map((d) => (d.hook === ORDERS ? { ...d, takeOver: true } : d));
      expect((await stack.up(program)).ok).toBe(true);
      expect(stack.resource("orders")?.outs.takenOver).toBe(oldId);
      expect(stack.resource("orders")?.outs.previous).toEqual({
        id: oldId,
        url: "https://legacy.example.com/o",
      });
      expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
      expect(
        sim
          .subscriptions("acme")
          .map((s) => [s.hook, s.url])
          .sort(),
      ).toEqual(program.map((d) => [d.hook, d.url]).sort());
    },
  );

  it("keep-id: destroy --refresh of the stack whose hook another stack took over leaves the other's subscription", async () => {
    const sim = acme.withSwitches({ overwrite: "keep-id" });
    const one = new Stack(configOf(sim));
    const two = new Stack(configOf(sim));
    expect((await one.up([{ name: "orders", hook: ORDERS, url: "https://one.example.com/o" }])).ok).toBe(
      true,
    );
    const takeOver = { name: "orders", hook: ORDERS, url: "https://two.example.com/o", takeOver: true };
    expect((await two.up([takeOver])).ok).toBe(true);
    expect(one.recorded().map((r) => r.id)).toEqual(two.recorded().map((r) => r.id));
    expect((await one.destroy({ refresh: true })).ok).toBe(true);
    expect(sim.subscriptions("acme")).toEqual(two.recorded());
    expect(sim.subscriptions("acme").map((s) => s.url)).toEqual(["https://two.example.com/o"]);
  });
});

/**
 * `up --continue-on-error` of `program`, which moves the orders hook away from the resource `orders`, while
 * every POST fails: it fails, and orders' delete leaves its subscription live and recorded.
 */
async function expectKeptWhilePostsFail(sim: RunningSimulator, stack: Stack, program: Declaration[]) {
  const live = sim.subscriptions("acme");
  sim.addFault({ kind: "status", status: 500, method: "POST", count: 20 });
  const up = await stack.up(program, { continueOnError: true });
  sim.clearFaults();
  expect(up.ok).toBe(false);
  expect(up.errors.join("\n")).toMatch(/orders: not deleting subscription \d+ \(order_status_change\)/);
  expect(sim.subscriptions("acme")).toEqual(live);
  expect(stack.recorded()).toEqual(live);
}

describe("up --continue-on-error never unsubscribes a hook the program declares", () => {
  it.each(["new-id", "keep-id"] as const)(
    "%s: a rename without an alias (URL changed, takeOver) whose POST fails keeps the old one's subscription live and recorded",
    async (overwrite) => {
      const { sim, stack } = await deployed(acme, [ORDERS_DECLARED], { overwrite });
      const renamed = {
        ...ORDERS_DECLARED,
        name: "orders-renamed",
        url: "https://hooks.example.com/o2",
        takeOver: true,
      };
      await expectKeptWhilePostsFail(sim, stack, [renamed]);
      // The service answering again, the next up finishes the move.
      expect((await stack.up([renamed])).ok).toBe(true);
      expect(sim.subscriptions("acme").map((s) => s.url)).toEqual(["https://hooks.example.com/o2"]);
      expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
    },
  );

  it.each(["new-id", "keep-id"] as const)(
    "%s: a rename without an alias keeping hook and URL, whose create fails, is a documented limit: the old one's delete runs, and the next up subscribes the hook again",
    async (overwrite) => {
      const sim = acme.withSwitches({ overwrite });
      const stack = new Stack(configOf(sim));
      expect((await stack.up([ORDERS_DECLARED])).ok).toBe(true);
      // The new resource's check and create cannot list the shop; the service answers again for the delete.
      sim.addFault({ kind: "status", status: 500, method: "GET", count: 2 });
      const renamed = { ...ORDERS_DECLARED, name: "orders-renamed" };
      const up = await stack.up([renamed], { continueOnError: true });
      sim.clearFaults();
      expect(up.ok).toBe(false);
      // The host names no resource, and `up --replace` of the old one looks the same to the provider
      // (docs/safety.md, "One hook per shop"): nothing is left live that no state records.
      expect(sim.subscriptions("acme")).toEqual(stack.recorded());
      expect((await stack.up([renamed])).ok).toBe(true);
      expect(sim.subscriptions("acme").map((s) => [s.hook, s.url])).toEqual([[ORDERS, ORDERS_DECLARED.url]]);
      expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
    },
  );

  it.each(["new-id", "keep-id"] as const)(
    "%s: a hook moved to another key of the same shop, whose POST fails, keeps the old one's subscription live and recorded",
    async (overwrite) => {
      const sim = acme.withSwitches({ overwrite });
      const stack = new Stack(
        configOf(sim, ACME_KEY, { "shipping:shops": shops({ second: { apiKey: ACME_SECOND_KEY } }) }),
      );
      expect((await stack.up([ORDERS_DECLARED])).ok).toBe(true);
      const moved = {
        name: "orders-moved",
        hook: ORDERS,
        url: "https://hooks.example.com/o2",
        shop: "second",
        takeOver: true,
      };
      await expectKeptWhilePostsFail(sim, stack, [moved]);
    },
  );

  it.each(["new-id", "keep-id"] as const)(
    "%s: a hook handed from one resource to a new one whose POST fails stays subscribed; the next up needs takeOver",
    async (overwrite) => {
      const sim = acme.withSwitches({ overwrite });
      const stack = new Stack(configOf(sim));
      const a = { name: "a", hook: ORDERS, url: "https://hooks.example.com/a" };
      expect((await stack.up([a])).ok).toBe(true);
      const moved = { ...a, hook: LABELS };
      const b = { name: "b", hook: ORDERS, url: "https://hooks.example.com/b" };
      // a's POST succeeds; b's (a later POST) fails.
      sim.addFault({ kind: "status", status: 500, method: "POST", count: 20, after: "POST" });
      const up = await stack.up([moved, b], { continueOnError: true, parallel: 1 });
      sim.clearFaults();
      expect(up.ok).toBe(false);
      expect(hooksIn(sim, "acme")).toEqual([ORDERS, LABELS].sort());
      // What a's old half left is no resource's now (docs/safety.md): b is refused until it opts in, and the
      // hook stays subscribed meanwhile.
      const next = await stack.up([moved, b]);
      expect(next.errors.join("\n")).toMatch(
        /^b: hook: .*already has subscription \d+, which calls another URL/,
      );
      expect(hooksIn(sim, "acme")).toEqual([ORDERS, LABELS].sort());
      expect((await stack.up([moved, { ...b, takeOver: true }])).ok).toBe(true);
      expect(
        sim
          .subscriptions("acme")
          .map((s) => [s.hook, s.url])
          .sort(),
      ).toEqual([moved, b].map((d) => [d.hook, d.url]).sort());
      expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
    },
  );
});
