import { describe, expect, it } from "vitest";
import type { ShippingClient } from "../../provider/client/shippingClient";
import type { Subscription } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import {
  type Declaration,
  declarationsProgram,
  engine,
  OutputLog,
  sandbox,
  stackIn,
  subscriptionResources,
} from "../support/engine";
import { outOfBand as sharedOutOfBand } from "../support/outOfBand";
import { ACME_KEY, acmeStackConfig } from "../support/shops";

const SHIPMENTS = "shipment_status_change";
const LABELS = "shipment_label_created";
const ORDERS = "order_status_change";
const THREE: Declaration[] = [
  { name: "shipments", hook: SHIPMENTS, url: "https://hooks.example.com/s" },
  { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
  { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" },
];

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

/** A stack whose program declares whatever `declare` is set to before each run. */
async function project(name: string) {
  const box = sandbox(name);
  let declared: Declaration[] = [];
  const stack = await stackIn(
    box,
    declarationsProgram(() => declared),
    acmeStackConfig(acme.sim.baseUrl),
  );
  const log = new OutputLog();
  return {
    box,
    stack,
    log,
    declare(next: Declaration[]) {
      declared = next;
    },
    up: () => engine(stack.up({ onOutput: log.onOutput }), `${name}: up`),
    preview: () => engine(stack.preview({ onOutput: log.onOutput, diff: true }), `${name}: preview`),
    refresh: () => engine(stack.refresh({ onOutput: log.onOutput }), `${name}: refresh`),
    destroy: () => engine(stack.destroy({ onOutput: log.onOutput }), `${name}: destroy`),
    async stateIds(): Promise<Record<string, number>> {
      const resources = subscriptionResources(await stack.exportStack());
      return Object.fromEntries(resources.map((r) => [r.outputs.hook, Number(r.id)]));
    },
  };
}

/** A {@link project} whose `up` of THREE has run. */
async function deployedThree(name: string): ReturnType<typeof project> {
  const p = await project(name);
  p.declare(THREE);
  await p.up();
  return p;
}

/** Changes made outside the stack, as the back office or another tool would, with acme's own key. */
function outOfBand(change: (client: ShippingClient) => Promise<unknown>): Promise<unknown> {
  return sharedOutOfBand(acme.sim.baseUrl, ACME_KEY, change);
}

function live(): Subscription[] {
  return acme.sim.subscriptions("acme");
}

function expectLiveEquals(declared: readonly Declaration[], stateIds: Record<string, number>): void {
  const expected = declared.map((d) => ({ id: stateIds[d.hook], hook: d.hook, url: d.url }));
  expect([...live()].sort((a, b) => a.hook.localeCompare(b.hook))).toEqual(
    expected.sort((a, b) => a.hook.localeCompare(b.hook)),
  );
}

describe("the engine end to end", () => {
  it("fails preview on an uppercase or http URL, naming the property, with 0 API requests", async () => {
    const p = await project("bad-url");
    for (const url of ["https://Hooks.example.com/s", "http://hooks.example.com/s"]) {
      p.declare([{ name: "shipments", hook: SHIPMENTS, url }]);
      const error = await p.preview().then(
        () => undefined,
        (e: unknown) => String(e),
      );
      expect(error).toMatch(/url/);
      expect(error).toMatch(
        url.startsWith("http:") ? /must use HTTPS/ : /must be lowercase.*https:\/\/hooks\.example\.com\/s/,
      );
    }
    expect(acme.sim.requests()).toEqual([]);
  });

  it("fails preview when one program declares the same hook twice for a shop", async () => {
    const p = await project("dup-hook");
    p.declare([
      { name: "a", hook: ORDERS, url: "https://hooks.example.com/a" },
      { name: "b", hook: ORDERS, url: "https://hooks.example.com/b" },
    ]);
    const error = await p.preview().then(
      () => undefined,
      (e: unknown) => String(e),
    );
    expect(error).toMatch(/"b" declares hook order_status_change .* "a" already declares/);
    // No write; at most the preview's one listing of the shop (is the key refused, the API down?).
    expect(acme.sim.requests().map((r) => `${r.method} ${r.path}`)).toEqual(
      acme.sim.requests().length === 0 ? [] : ["GET /webhook_subscriptions/"],
    );
  });

  it("creates three, then a preview and a refresh show no change and make no write", async () => {
    const p = await project("create");
    p.declare(THREE);
    const up = await p.up();
    expect(up.summary.resourceChanges?.create).toBe(4); // three subscriptions and the stack
    expectLiveEquals(THREE, await p.stateIds());
    acme.sim.clearRequests();
    const preview = await p.preview();
    expect(preview.changeSummary.same).toBe(4);
    expect(preview.changeSummary.create ?? 0).toBe(0);
    const refresh = await p.refresh();
    expect(refresh.summary.resourceChanges?.update ?? 0).toBe(0);
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    // The preview lists the shop once: its program (drift and takeovers, on the resource) hands the listing to
    // the provider (is the key still the recorded shop's?); the refresh lists it once more.
    expect(acme.sim.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /webhook_subscriptions/",
      "GET /webhook_subscriptions/",
    ]);
    await p.destroy();
    expect(live()).toEqual([]);
  });

  it.each(["keep-id", "new-id"] as const)("changes a URL with no gap (overwrite %s)", async (overwrite) => {
    acme.sim.setSwitches({ overwrite });
    const p = await deployedThree(`url-${overwrite}`);
    const changed = THREE.map((d) => (d.hook === ORDERS ? { ...d, url: "https://hooks.example.com/o2" } : d));
    p.declare(changed);
    acme.sim.clearRequests();
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(live().filter((s) => s.hook === ORDERS).length), 1);
    try {
      await p.up();
    } finally {
      clearInterval(sampler);
    }
    expect(samples.length).toBeGreaterThan(10);
    expect(samples.every((count) => count === 1)).toBe(true);
    expect(acme.sim.requests().filter((r) => r.method === "DELETE")).toEqual([]); // nothing removed the hook
    expectLiveEquals(changed, await p.stateIds());
    const again = await p.preview();
    expect(again.changeSummary.replace ?? 0).toBe(0);
    await p.destroy();
    acme.sim.setSwitches({ overwrite: "new-id" });
  });

  it("replaces on a hook change: old hook gone, new hook present", async () => {
    const p = await project("hook-change");
    p.declare([{ name: "events", hook: LABELS, url: "https://hooks.example.com/e" }]);
    await p.up();
    const next = [{ name: "events", hook: SHIPMENTS, url: "https://hooks.example.com/e" }];
    p.declare(next);
    const up = await p.up();
    expect(up.summary.resourceChanges?.replace).toBe(1);
    expectLiveEquals(next, await p.stateIds());
    await p.destroy();
  });

  it("heals out-of-band changes: refresh drops a deleted one and a re-pointed one; up restores the deleted one, and the re-pointed one with takeOver", async () => {
    const p = await deployedThree("drift");
    const ids = await p.stateIds();
    await outOfBand(async (backOffice) => {
      await backOffice.delete([ids[LABELS] ?? 0]);
      acme.sim.setSwitches({ overwrite: "keep-id" }); // a back-office edit of the URL keeps the subscription's id
      await backOffice.create([{ hook: ORDERS, url: "https://backoffice.example.com/o" }]);
      acme.sim.setSwitches({ overwrite: "new-id" });
    });

    // A subscription that points elsewhere is no longer this resource's (the ownership rule): refresh drops
    // it like the deleted one, and the provider says which hook and where it points now.
    const refresh = await p.refresh();
    expect(refresh.summary.resourceChanges?.delete).toBe(2);
    expect(refresh.stdout + refresh.stderr).toContain(
      `subscription ${ids[ORDERS]} (${ORDERS}) now points at another URL than this resource declared`,
    );
    expect(refresh.stdout + refresh.stderr).not.toContain("backoffice.example.com");
    const refreshed = subscriptionResources(await p.stack.exportStack());
    expect(refreshed.map((r) => [r.outputs.hook, r.outputs.url])).toEqual([
      [SHIPMENTS, "https://hooks.example.com/s"],
    ]);
    // The back office's URL is no resource's now: up refuses to overwrite it, on its resource. The engine ends
    // the up at that failed check, so whether labels was created first depends on which registration reached
    // it first: only the refusal and the back office's subscription are certain.
    await expect(p.up()).rejects.toThrow(/orders.*already has subscription \d+, which calls another URL/s);
    expect(acme.sim.subscriptions("acme").find((s) => s.hook === ORDERS)?.url).toBe(
      "https://backoffice.example.com/o",
    );
    p.declare(THREE.map((d) => (d.hook === ORDERS ? { ...d, takeOver: true } : d)));
    await p.up();
    expectLiveEquals(THREE, await p.stateIds());
    await p.destroy();
  });

  it("refuses a subscription that existed before the stack; with takeOver takes it over and says so", async () => {
    let oldId: number | undefined;
    await outOfBand(async (before) => {
      [oldId] = await before.create([{ hook: ORDERS, url: "https://legacy.example.com/o" }]);
    });
    const p = await project("adopt");
    p.declare(THREE);
    await expect(p.up()).rejects.toThrow(/already has subscription \d+, which calls another URL/);
    p.declare(THREE.map((d) => (d.hook === ORDERS ? { ...d, takeOver: true } : d)));
    const up = await p.up();
    expect(up.outputs.orders?.value.previous).toEqual({ id: oldId, url: "https://legacy.example.com/o" });
    expectLiveEquals(THREE, await p.stateIds());
    await p.destroy();
  });

  it("destroys to an empty shop, also after an out-of-band delete", async () => {
    const p = await deployedThree("destroy");
    const ids = await p.stateIds();
    await outOfBand((backOffice) => backOffice.delete([ids[SHIPMENTS] ?? 0]));
    const destroy = await p.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(4);
    expect(live()).toEqual([]);
  });
});
