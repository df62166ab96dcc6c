/**
 * Review 13, attack 5: a create whose POST was applied but whose answer never arrived (drop-after-write past
 * the retry budget) fails the `up`; the resource is not in state, so a following `pulumi destroy` succeeds
 * and leaves the subscription the stack created. Guarantee 3: nothing the stack created is orphaned after
 * a successful destroy.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { acmeStackConfig, TEST_SHOPS } from "../support/shops";
import { declarationsProgram, engine, sandbox, stackIn, subscriptionResources } from "./support/engine";

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((s) => s.close()));
});

describe("attack: destroy after an up whose POST was applied but not answered", () => {
  it("records the applied write, so destroy leaves nothing behind", async () => {
    const sim = await startSimulator({ shops: TEST_SHOPS });
    simulators.push(sim);
    const box = sandbox("attack-orphan");
    const stack = await stackIn(
      box,
      declarationsProgram(() => [
        { name: "orders", hook: "order_status_change", url: "https://hooks.example.com/o" },
      ]),
      {
        ...acmeStackConfig(sim.baseUrl),
        "shipping:retry": { value: JSON.stringify({ maxRetries: 1, baseDelayMs: 10, maxDelayMs: 20 }) },
      },
    );
    sim.addFault({ kind: "drop-after-write", method: "POST" });
    const up = await engine(stack.up(), "up").then(
      () => "succeeded",
      (e: unknown) =>
        `failed: ${String(e)
          .split("\n")
          .filter((l) => l.includes("error"))
          .join(" | ")
          .slice(0, 600)}`,
    );
    sim.clearFaults();
    const inState = subscriptionResources(await stack.exportStack()).length;
    await engine(stack.destroy(), "destroy");
    console.log({ up, inState, live: sim.subscriptions("acme") });
    // The applied write is found by a fresh listing and recorded, so the up succeeds and destroy removes it.
    expect(up).toBe("succeeded");
    expect(inState).toBe(1);
    expect(sim.subscriptions("acme")).toEqual([]);
  });
});
