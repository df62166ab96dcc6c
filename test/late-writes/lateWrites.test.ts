/**
 * Writes the service applies after the provider gave up (issue 34, item 2), through the provider's operations
 * in the engine's order: a POST held past the headers timeout by the simulator's `late-apply` fault is sent
 * once, its creates say the outcome is unknown, and the next `up` adopts what landed. A write of the recorded
 * hook and URL landing after the record (a new id under new-id overwrite) is the resource's: refresh records
 * it, destroy deletes it, and no other resource of the deployment takes it too.
 */
import { describe, expect, it } from "vitest";
import type { RunningSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack } from "../support/engineOrder";
import { outOfBand } from "../support/outOfBand";
import { configOf, LABELS, ORDERS, QUICK_RETRY, SHIPMENTS, writes } from "../support/services";
import { ACME_KEY } from "../support/shops";

const acme = useAcmeSimulator();

const THREE: Declaration[] = [
  { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" },
  { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
  { name: "shipments", hook: SHIPMENTS, url: "https://hooks.example.com/s" },
];
/**
 * The provider gives up on an answer after this long; a held request lands at LATE_MS, well after undici's
 * coarse timers (about half a second) fired the headers timeout and the create listed the shop again.
 */
const FAST = { ...QUICK_RETRY, "shipping:timeouts": JSON.stringify({ headersMs: 300, deadlineMs: 10_000 }) };
const LATE_MS = 2_500;

/** Polls (with a deadline) until the simulator applied the held request. */
async function landed(sim: RunningSimulator): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!sim.requests().some((r) => r.fault === "late-apply" && r.appliedStatus !== undefined)) {
    if (Date.now() > deadline) throw new Error("the held request was never applied");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The same hook and URL posted again outside the stack: what a late write does, a new id. */
async function postedAgain(sim: RunningSimulator, declared: Declaration): Promise<number> {
  const [id] = await outOfBand(sim.baseUrl, ACME_KEY, (api) =>
    api.create([{ hook: declared.hook, url: declared.url }]),
  );
  return id as number;
}

/** Captures what the provider writes to stderr (its warnings) while `work` runs. */
async function said<T>(work: () => Promise<T>): Promise<{ result: T; text: string }> {
  const chunks: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    return { result: await work(), text: chunks.join("") };
  } finally {
    process.stderr.write = write;
  }
}

describe("a POST the service applies after the provider gave up", () => {
  it("is sent once; each create says its outcome is unknown; the next up adopts what landed with no write", async () => {
    const sim = acme.withSwitches({ overwrite: "new-id" });
    const stack = new Stack(configOf(sim, ACME_KEY, FAST));
    sim.addFault({ kind: "late-apply", ms: LATE_MS, method: "POST", count: 1 });
    const failed = await stack.up(THREE);
    expect(failed.ok).toBe(false);
    expect(sim.requests().filter((r) => r.method === "POST")).toHaveLength(1);
    expect(failed.errors).toHaveLength(3);
    for (const error of failed.errors) {
      expect(error).toMatch(
        /Request failed: POST http:\/\/127\.0\.0\.1:\d+\/webhook_subscriptions .*UND_ERR_HEADERS_TIMEOUT/,
      );
      expect(error).toContain("Its outcome is unknown");
      expect(error).toContain("so it was not sent again. Run `pulumi up` again");
      expect(error).not.toContain(ACME_KEY);
    }
    expect(stack.recorded()).toEqual([]);
    await landed(sim);

    sim.clearRequests();
    expect((await stack.up(THREE)).ok).toBe(true);
    expect(writes(sim)).toEqual([]);
    expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
    expect((await stack.destroy()).ok).toBe(true);
    expect(sim.subscriptions("acme")).toEqual([]);
  });
  it("behind a gateway that answers 504: not sent again, the create says so, the next up adopts what landed", async () => {
    const sim = acme.withSwitches({ overwrite: "new-id" });
    const stack = new Stack(configOf(sim, ACME_KEY, FAST));
    sim.addFault({ kind: "late-apply", ms: 1_000, gatewayMs: 50, method: "POST", count: 1 });
    const failed = await stack.up(THREE.slice(0, 1));
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(
      /status code 504 Gateway Timeout: POST http:\/\/127\.0\.0\.1:\d+\/webhook_subscriptions/,
    );
    expect(failed.error).toContain("Its outcome is unknown");
    expect(sim.requests().filter((r) => r.method === "POST")).toHaveLength(1);
    await landed(sim);
    sim.clearRequests();
    expect((await stack.up(THREE.slice(0, 1))).ok).toBe(true);
    expect(writes(sim)).toEqual([]);
    expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
  });
});

describe("a write of the recorded hook and URL that lands after the record (a new id)", () => {
  it("refresh records the new id, saying what happened; up then changes nothing", async () => {
    const sim = acme.withSwitches({ overwrite: "new-id" });
    const stack = new Stack(configOf(sim, ACME_KEY, FAST));
    expect((await stack.up(THREE)).ok).toBe(true);
    const recorded = Number(stack.resource("orders")?.id);
    const late = await postedAgain(sim, THREE[0] as Declaration);
    const { result, text } = await said(() => stack.refresh());
    expect(result.ok).toBe(true);
    expect(Number(stack.resource("orders")?.id)).toBe(late);
    expect(text).toContain(
      `subscription ${recorded} (${ORDERS}) of the default shop is gone, and the service holds ${ORDERS} at the recorded URL as subscription ${late}`,
    );
    sim.clearRequests();
    expect(await stack.up(THREE)).toMatchObject({ ok: true, steps: { same: 3 } });
    expect(writes(sim)).toEqual([]);
  });

  it("destroy deletes it: nothing is left live and in no state", async () => {
    const sim = acme.withSwitches({ overwrite: "new-id" });
    const stack = new Stack(configOf(sim, ACME_KEY, FAST));
    expect((await stack.up(THREE)).ok).toBe(true);
    const late = await postedAgain(sim, THREE[0] as Declaration);
    const { result, text } = await said(() => stack.destroy());
    expect(result).toMatchObject({ ok: true, steps: { delete: 3 } });
    expect(text).toContain(`as subscription ${late}`);
    expect(sim.subscriptions("acme")).toEqual([]);
    expect(stack.resources).toEqual([]);
  });

  it("a resource that now declares that hook and URL under another name keeps it: the old one's delete leaves it", async () => {
    const sim = acme.withSwitches({ overwrite: "new-id" });
    const stack = new Stack(configOf(sim, ACME_KEY, FAST));
    expect((await stack.up(THREE)).ok).toBe(true);
    const late = await postedAgain(sim, THREE[0] as Declaration);
    // Renamed without an alias: the new resource adopts the live subscription, the old one is deleted.
    const renamed = [{ ...(THREE[0] as Declaration), name: "orders-renamed" }, ...THREE.slice(1)];
    expect((await stack.up(renamed)).ok).toBe(true);
    expect(sim.subscriptions("acme").find((s) => s.hook === ORDERS)?.id).toBe(late);
    expect(Number(stack.resource("orders-renamed")?.id)).toBe(late);
    expect(stack.resource("orders")).toBeUndefined();
  });

  it("a resource whose recorded id is gone does not take the subscription another resource records", async () => {
    const sim = acme.withSwitches({ overwrite: "new-id" });
    const stack = new Stack(configOf(sim, ACME_KEY, FAST));
    expect((await stack.up(THREE)).ok).toBe(true);
    const orders = stack.resource("orders");
    const live = Number(orders?.id);
    // A rename without an alias whose old resource's delete did not run, recording an id that is gone since.
    if (orders === undefined) throw new Error("orders not recorded");
    const gone = { ...orders, name: "orders-old", id: "999", outs: { ...orders.outs, subscriptionId: 999 } };
    stack.resources = [...stack.resources, gone];
    expect((await stack.refresh()).ok).toBe(true);
    expect(stack.resource("orders-old")).toBeUndefined();
    expect(Number(stack.resource("orders")?.id)).toBe(live);
    expect((await stack.destroy()).ok).toBe(true);
    expect(sim.subscriptions("acme")).toEqual([]);
  });
});
