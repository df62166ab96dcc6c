/**
 * A rename without an alias (same hook and URL) leaves, until a complete `up` deletes the old resource, two
 * records of one subscription: the new resource adopted the old one's id. When the rename is rolled out with
 * `up --target <new>`, or its `up` failed on another resource before the engine's deletes, the next
 * `up --refresh` deletes the old record and keeps the subscription the new one adopted: every declared hook
 * live, state id = live id. Run in the engine's order of calls (test/support/engineOrder.ts); what the engine itself
 * does under `--target` is shown by test/ownership/targeted.e2e.test.ts.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import type { Declaration } from "../support/engineOrder";
import { deployed, hooksIn, LABELS, ORDERS } from "../support/services";

const acme = useAcmeSimulator();

const URL = "https://hooks.example.com/o";
const A: Declaration = { name: "a", hook: ORDERS, url: URL };
const B: Declaration = { name: "b", hook: ORDERS, url: URL };

describe("a rename without an alias, then up --refresh", () => {
  it("rolled out with up --target <new>: the subscription the renamed resource adopted is kept", async () => {
    const { sim, stack } = await deployed(acme, [A]);
    const [live] = sim.subscriptions("acme");
    expect(await stack.up([B], { target: ["b"] })).toMatchObject({
      ok: true,
      steps: { create: 1, delete: 0 },
    });
    expect(stack.resources.map((r) => [r.name, Number(r.id)])).toEqual([
      ["a", live?.id],
      ["b", live?.id],
    ]);
    expect(await stack.up([B], { refresh: true })).toMatchObject({ ok: true, steps: { same: 1, delete: 1 } });
    expect(sim.subscriptions("acme")).toEqual([live]);
    expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
  });

  it("whose up failed on another resource (a 500 to its POST) before the deletes: the retry keeps it", async () => {
    const { sim, stack } = await deployed(acme, [A]);
    const program = [B, { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" }];
    sim.addFault({ kind: "status", status: 500, method: "POST", count: 1 });
    const failed = await stack.up(program);
    expect(failed.ok).toBe(false);
    expect(failed.steps.delete).toBe(0);
    expect(stack.resources.map((r) => r.name).sort()).toEqual(["a", "b"]);
    expect((await stack.up(program, { refresh: true })).ok).toBe(true);
    expect(hooksIn(sim, "acme")).toEqual([LABELS, ORDERS].sort());
    expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
  });
});
