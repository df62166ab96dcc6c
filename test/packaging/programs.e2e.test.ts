import { cpSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { DYNAMIC_RESOURCE_TYPE } from "../../provider/resourceTypes";
import { useAcmeSimulator } from "../support/acmeSimulator";
import {
  type Declaration,
  declarationsProgram,
  engine,
  pulumi,
  REPO_ROOT,
  type Sandbox,
  sandbox,
  stackIn,
  subscriptionResources,
} from "../support/engine";
import { ACME_KEY, acmeStackConfig } from "../support/shops";

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

const ORDERS: Declaration = {
  name: "orders",
  hook: "order_status_change",
  url: "https://hooks.example.com/o",
};
const config = () => acmeStackConfig(acme.sim.baseUrl);

/** A program declaring ORDERS through release 0.1.0's resource shape: a serialized closure in `__provider`. */
function release010Program(): PulumiFn {
  const shim = join(REPO_ROOT, "test/packaging/fixtures/shim-0.1.0.js");
  const provider = createRequire(shim)(shim).webhookSubscriptionProvider;
  return async () => {
    const props = { hook: ORDERS.hook, url: ORDERS.url, shop: undefined, subscriptionId: undefined };
    class Release010 extends pulumi.dynamic.Resource {}
    new Release010(provider, ORDERS.name, props, undefined, "shipping", "WebhookSubscription");
  };
}

/**
 * The provider module builds stored from commit 05c6f5d until the 114-byte one (345 bytes, with its own
 * message for a missing package): state written by them must keep working after an upgrade and back.
 */
const EARLIER_PROVIDER_MODULE =
  'exports.handler=()=>{let r;try{r=require("pulumi-shipping-webhooks/runtime")}catch(e){if(e.code==="MODULE_NOT_FOUND")e.message="install pulumi-shipping-webhooks in "+process.cwd()+", the project that runs pulumi: "+e.message;throw e}return{configure:r.configure,check:r.check,diff:r.diff,create:r.create,read:r.read,delete:r.deleteSubscription}}';

/** A program declaring ORDERS as this build does, but with the earlier provider module in `__provider`. */
function earlierModuleProgram(): PulumiFn {
  return async () => {
    const props = {
      __provider: EARLIER_PROVIDER_MODULE,
      hook: ORDERS.hook,
      url: ORDERS.url,
      shop: undefined,
      subscriptionId: undefined,
      api: undefined,
      shopId: undefined,
      accountId: undefined,
      previous: undefined,
    };
    class EarlierModule extends pulumi.CustomResource {}
    new EarlierModule(DYNAMIC_RESOURCE_TYPE, ORDERS.name, props, { additionalSecretOutputs: ["previous"] });
  };
}

/** A stack in `box` whose program declares ORDERS as this build does. */
function ordersStack(box: Sandbox): Promise<Stack> {
  return stackIn(
    box,
    declarationsProgram(() => [ORDERS]),
    config(),
  );
}

describe("provider builds and project copies", () => {
  it("stores a provider module of at most 400 bytes per resource, with no path and no credential", async () => {
    const box = sandbox("module-bytes");
    const stack = await ordersStack(box);
    await engine(stack.up(), "up");
    const resource = subscriptionResources(await stack.exportStack())[0];
    const shim = String(resource?.inputs.__provider);
    expect(Buffer.byteLength(shim)).toBeLessThanOrEqual(400);
    expect(resource?.outputs.__provider).toBe(shim);
    expect(shim).not.toContain(REPO_ROOT);
    expect(shim).not.toContain(ACME_KEY);
    await engine(stack.destroy(), "destroy");
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });

  it.each([
    ["from release 0.1.0 (a serialized closure) to this build", "0.1.0", "this"],
    ["from this build back to release 0.1.0", "this", "0.1.0"],
    ["from the earlier 345-byte module to this build", "earlier", "this"],
    ["from this build back to the earlier 345-byte module", "this", "earlier"],
  ])("a package upgrade %s shows no change, writes nothing and keeps every output", async (_, from, to) => {
    const box = sandbox(`upgrade-${from}-${to}`);
    const programs: Record<string, PulumiFn> = {
      "0.1.0": release010Program(),
      earlier: earlierModuleProgram(),
      this: declarationsProgram(() => [ORDERS]),
    };
    let program = programs[from] as PulumiFn;
    const stack = await stackIn(box, async () => program(), config());
    await engine(stack.up(), `up with ${from}`);
    const before = subscriptionResources(await stack.exportStack())[0];

    program = programs[to] as PulumiFn;
    acme.sim.clearRequests();
    const preview = await engine(stack.preview(), `preview with ${to}`);
    expect(preview.changeSummary).toEqual({ same: 2 });
    await engine(stack.up(), `up with ${to}`);
    const after = subscriptionResources(await stack.exportStack())[0];
    // The engine records the new module in the inputs and keeps the outputs (with the old one) as they were
    // (pulumi/pulumi#9982); both load the installed runtime by name, so either runs the current code.
    expect(after?.inputs.__provider).not.toBe(before?.inputs.__provider);
    const { __provider: _old, ...outputsBefore } = before?.outputs ?? {};
    const { __provider: _new, ...outputsAfter } = after?.outputs ?? {};
    expect(outputsAfter).toEqual(outputsBefore);
    expect(after?.id).toBe(before?.id);
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    await engine(stack.refresh(), `refresh with ${to}`);
    await engine(stack.destroy(), `destroy with ${to}`);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });

  it("is portable: up from one directory, destroy from a copy at another path after the first is gone", async () => {
    const box = sandbox("portable");
    const first = await ordersStack(box);
    await engine(first.up(), "up");
    expect(acme.sim.subscriptions("acme")).toHaveLength(1);
    const elsewhere = sandbox("portable-copy");
    cpSync(box.workDir, elsewhere.workDir, { recursive: true });
    rmSync(box.workDir, { recursive: true });
    const copy = await stackIn(
      { ...elsewhere, backendDir: box.backendDir },
      declarationsProgram(() => [ORDERS]),
      {},
    );
    await engine(copy.destroy(), "destroy from the copy");
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });
});
