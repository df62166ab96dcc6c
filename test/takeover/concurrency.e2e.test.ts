/**
 * Issue 10, concurrency, through the real Pulumi CLI: two `pulumi up` on one stack at once (the backend's
 * lock stops the second; nothing is lost), and two stacks declaring the same shop and hook (the ownership
 * rule of the README: the later `up` refuses the other's subscription, and with `takeOver: true` takes it over
 * and says so in `previous`; a destroy leaves alone what it no longer owns).
 */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { type Declaration, declarationsProgram, sandbox, stackIn } from "../support/engine";
import { fastConfig, openProject, type Project, settle, storedState } from "../support/engineProject";
import { invariantViolations } from "../support/invariants";
import { TEST_SHOPS } from "../support/shops";

const ORDERS = "order_status_change";
const TWO: Declaration[] = [
  { name: "orders", hook: ORDERS, url: "https://h.example/o" },
  { name: "labels", hook: "shipment_label_created", url: "https://h.example/l" },
];
/** How long the gated program waits at most: a bound so that a broken test cannot hang. */
const GATE_LIMIT_MS = 120_000;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ shops: TEST_SHOPS });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  sim.setSwitches({ overwrite: "new-id" });
});

/** A promise resolved from outside. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

/** Runs `program`, tells `started`, then holds the update open until `release` fires (or the limit passes). */
function gatedProgram(program: PulumiFn, started: () => void, release: Promise<void>): PulumiFn {
  return async () => {
    const outputs = await program();
    started();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, GATE_LIMIT_MS);
    });
    await Promise.race([release, limit]);
    clearTimeout(timer);
    return outputs;
  };
}

const orders = () => sim.subscriptions("acme").filter((s) => s.hook === ORDERS);

describe("two `pulumi up` on one stack at once", () => {
  /** Every hook POSTed so far, sorted (the hooks of one shop go out in one POST). */
  const postedHooks = () =>
    sim
      .requests()
      .filter((r) => r.method === "POST")
      .flatMap(
        (r) => (r.body as { data: { webhook_subscriptions: { hook: string }[] } }).data.webhook_subscriptions,
      )
      .map((sub) => sub.hook)
      .sort();

  it("the backend lock stops the second with a clear message; the first completes; nothing is lost", async () => {
    const box = sandbox("lock");
    const started = signal();
    const release = signal();
    const first = await stackIn(
      box,
      gatedProgram(
        declarationsProgram(() => TWO),
        started.fire,
        release.promise,
      ),
      fastConfig(sim),
    );
    const second = await stackIn(
      box,
      declarationsProgram(() => TWO),
      fastConfig(sim),
    );
    const firstUp = settle(first, "up", "lock: first up");
    await started.promise; // the first update holds the lock and is running its program
    const secondUp = await settle(second, "up", "lock: second up");
    release.fire();
    const firstDone = await firstUp;

    expect(secondUp.ok).toBe(false);
    expect(secondUp.error).toMatch(/the stack is currently locked by 1 lock/);
    expect(secondUp.error).toMatch(/wait for the other process.*pulumi cancel/s);
    expect(firstDone.error).toBe("");
    expect(invariantViolations(TWO, storedState(box), sim.subscriptions("acme"))).toEqual([]);
    expect(postedHooks()).toEqual(TWO.map((d) => d.hook).sort()); // nothing done twice

    // Once the first is done, the second stack object runs normally and finds nothing to change.
    const again = await settle(second, "up", "lock: up after");
    expect(again.error).toBe("");
    expect(invariantViolations(TWO, storedState(box), sim.subscriptions("acme"))).toEqual([]);
    expect(postedHooks()).toEqual(TWO.map((d) => d.hook).sort());
    expect((await settle(second, "destroy", "lock: destroy")).ok).toBe(true);
    expect(sim.subscriptions("acme")).toEqual([]);
  });
});

/** Two stacks (two projects with their own backends) for the same shop. */
async function twoStacks(urlA: string, urlB: string): Promise<[Project, Project]> {
  const a = await openProject("owner-a", fastConfig(sim));
  const b = await openProject("owner-b", fastConfig(sim));
  a.declare([{ name: "orders", hook: ORDERS, url: urlA }]);
  b.declare([{ name: "orders", hook: ORDERS, url: urlB }]);
  return [a, b];
}

async function up(project: Project): Promise<Record<string, unknown>> {
  const outcome = await project.run("up");
  expect(outcome.error).toBe("");
  return outcome.outputs.orders as Record<string, unknown>;
}

describe("two stacks declaring the same shop and hook", () => {
  it.each(["new-id", "keep-id"] as const)(
    "the later up refuses it, then with takeOver takes it over and reports the old id and URL; a destroy of the earlier leaves it (overwrite %s)",
    async (overwrite) => {
      sim.setSwitches({ overwrite });
      const [a, b] = await twoStacks("https://a.example/o", "https://b.example/o");
      const fromA = await up(a);
      expect(fromA.previous).toBeUndefined();
      // A's subscription is no resource's of B: B's up refuses it, writing nothing, until B opts in.
      const refused = await b.run("up");
      expect(refused.error).toContain(
        `already has subscription ${fromA.subscriptionId}, which calls another URL`,
      );
      expect(orders()).toEqual([{ id: fromA.subscriptionId, hook: ORDERS, url: "https://a.example/o" }]);
      b.declare([{ name: "orders", hook: ORDERS, url: "https://b.example/o", takeOver: true }]);
      const fromB = await up(b);
      expect(fromB.previous).toEqual({ id: fromA.subscriptionId, url: "https://a.example/o" });
      if (overwrite === "keep-id") expect(fromB.subscriptionId).toBe(fromA.subscriptionId);
      else expect(fromB.subscriptionId).not.toBe(fromA.subscriptionId);
      expect(orders()).toEqual([{ id: fromB.subscriptionId, hook: ORDERS, url: "https://b.example/o" }]);

      // A's program did not change: its next up sees no diff and does not take the hook back.
      const aAgain = await a.run("up");
      expect(aAgain.error).toBe("");
      expect(orders()).toEqual([{ id: fromB.subscriptionId, hook: ORDERS, url: "https://b.example/o" }]);

      // Destroying A does not remove what B now owns.
      expect((await a.run("destroy")).error).toBe("");
      expect(orders()).toEqual([{ id: fromB.subscriptionId, hook: ORDERS, url: "https://b.example/o" }]);
      expect(invariantViolations(b.declared(), b.state(), sim.subscriptions("acme"))).toEqual([]);
      expect((await b.run("destroy")).error).toBe("");
      expect(sim.subscriptions("acme")).toEqual([]);
    },
  );

  it("with the same URL both share one subscription (no second POST), and destroying either removes it", async () => {
    const [a, b] = await twoStacks("https://same.example/o", "https://same.example/o");
    const fromA = await up(a);
    sim.clearRequests();
    const fromB = await up(b);
    expect(fromB).toMatchObject({
      subscriptionId: fromA.subscriptionId,
      previous: { id: fromA.subscriptionId },
    });
    expect(sim.requests().filter((r) => r.method === "POST")).toEqual([]);
    expect((await a.run("destroy")).error).toBe("");
    expect(sim.subscriptions("acme")).toEqual([]);
    // B's state still names the id; a refresh drops it, and its next up subscribes again.
    expect((await b.run("refresh")).error).toBe("");
    await up(b);
    expect(invariantViolations(b.declared(), b.state(), sim.subscriptions("acme"))).toEqual([]);
    expect((await b.run("destroy")).error).toBe("");
  });
});
