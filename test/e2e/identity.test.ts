/**
 * The seven ways (found by review) in which `up` or `destroy` reported success while a declared hook was
 * left unsubscribed, a foreign subscription was deleted or adopted, one was orphaned, or a secret URL was
 * stored in plain text. Each runs the real CLI against the simulator, as a team would.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { RunningSimulator, Subscription } from "../../simulator";
import { outOfBand } from "../support/outOfBand";
import { ACME_KEY, ACME_SECOND_KEY, GLOBEX_KEY } from "../support/shops";
import { dist, engine, filesUnder, type Sandbox, subscriptionResources } from "./support/engine";
import { scenario, simulator } from "./support/scenario";

const ORDERS = "order_status_change";
const LABELS = "shipment_label_created";
const SHIPMENTS = "shipment_status_change";

/** Subscriptions of acme as (id, hook, url), for exact comparison with state. */
const live = (sim: RunningSimulator, shop = "acme"): Subscription[] => sim.subscriptions(shop);

/** What state records per subscription resource: id, hook, url (secrets unwrapped). */
async function recorded(stack: Awaited<ReturnType<typeof scenario>>["stack"]) {
  return subscriptionResources(await stack.exportStack())
    .map((r) => {
      const url = r.outputs.url as string | { plaintext: string };
      return {
        id: Number(r.id),
        hook: r.outputs.hook,
        url: typeof url === "string" ? url : JSON.parse(url.plaintext),
      };
    })
    .sort((a, b) => a.id - b.id);
}

function plainExport(box: Sandbox): string {
  return execFileSync(dist.pulumiCli.requirePulumiCli().binary, ["stack", "export", "--stack", "test"], {
    cwd: box.workDir,
    env: {
      ...process.env,
      PULUMI_HOME: box.pulumiHome,
      PULUMI_CONFIG_PASSPHRASE: "shipping-webhooks-demo",
    },
    encoding: "utf8",
  });
}

/** The error of an operation that must fail. */
async function failure(operation: Promise<unknown>): Promise<unknown> {
  const outcome = await operation.then(
    () => "succeeded",
    (error: unknown) => error,
  );
  expect(outcome).not.toBe("succeeded");
  return outcome;
}

const writesTo = (sim: RunningSimulator) =>
  sim.requests().filter((r) => r.method === "POST" || r.method === "DELETE").length;

describe("1. a secret URL", () => {
  it("changed from one secret to another, then adopted by a renamed resource, is never stored in plain text", async () => {
    const sim = await simulator();
    const first = "https://hooks.example.com/o?token=first-s3cret";
    const second = "https://hooks.example.com/o?token=second-s3cret";
    const run = await scenario(sim, [{ name: "orders", hook: ORDERS, url: first, secretUrl: true }]);
    await engine(run.stack.up({ onOutput: run.log.onOutput }), "up");
    run.state.declared = [{ name: "orders", hook: ORDERS, url: second, secretUrl: true }];
    await engine(run.stack.up({ onOutput: run.log.onOutput }), "up (secret change)");
    // A rename without an alias: the new resource adopts the live subscription of the old one.
    run.state.declared = [{ name: "orders-renamed", hook: ORDERS, url: second, secretUrl: true }];
    await engine(run.stack.up({ onOutput: run.log.onOutput }), "up (rename)");
    await engine(run.stack.refresh({ onOutput: run.log.onOutput }), "refresh");
    expect(JSON.stringify((await run.stack.outputs())["orders-renamed"]?.value)).toContain("second-s3cret");
    for (const file of filesUnder(run.box.backendDir)) {
      expect(file.text, file.path).not.toContain("s3cret");
    }
    expect(plainExport(run.box)).not.toContain("s3cret");
    expect(run.log.text).not.toContain("s3cret");
    expect(await recorded(run.stack)).toEqual(live(sim));
  });
});

describe("2. re-pointing the stack", () => {
  it("to another service: preview, up and refresh refuse before any write and name both APIs", async () => {
    const staging = await simulator();
    const production = await simulator();
    const run = await scenario(staging, [
      { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" },
      { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
    ]);
    await engine(run.stack.up(), "up");
    // Production already has subscriptions under the same ids, with other hooks and URLs.
    await outOfBand(production.baseUrl, ACME_KEY, (api) =>
      api.create([
        { hook: LABELS, url: "https://other-team.example.com/l" },
        { hook: SHIPMENTS, url: "https://other-team.example.com/s" },
      ]),
    );
    const foreign = live(production);
    const before = await recorded(run.stack);
    await run.stack.setConfig("shipping:baseUrl", { value: production.baseUrl });
    production.clearRequests();
    for (const operation of [
      (): Promise<unknown> => run.stack.preview({ onOutput: run.log.onOutput }),
      () => run.stack.up({ onOutput: run.log.onOutput }),
      () => run.stack.refresh({ onOutput: run.log.onOutput }),
      () => run.stack.destroy({ onOutput: run.log.onOutput }),
    ]) {
      const error = await failure(engine(operation(), "re-pointed operation"));
      expect(String(error)).toContain(`was created at ${staging.baseUrl}`);
      expect(String(error)).toContain(production.baseUrl);
    }
    expect(writesTo(production)).toBe(0);
    expect(live(production)).toEqual(foreign);
    expect(await recorded(run.stack)).toEqual(before);
    expect(live(staging)).toEqual(before);
    // Set back (and `up`, which refresh and destroy take the configuration from), all is as it was.
    await run.stack.setConfig("shipping:baseUrl", { value: staging.baseUrl });
    const up = await engine(run.stack.up(), "up (set back)");
    expect(up.summary.resourceChanges).toEqual({ same: 3 });
    const preview = await engine(run.stack.preview({ refresh: true }), "preview");
    expect(preview.changeSummary).toEqual({ same: 3 });
    expect(writesTo(production)).toBe(0);
  });

  it("to another shop's key: refresh and a change refuse before any write and name both shops", async () => {
    const sim = await simulator();
    await outOfBand(sim.baseUrl, GLOBEX_KEY, (api) =>
      api.create([{ hook: SHIPMENTS, url: "https://globex.example.com/s" }]),
    );
    const run = await scenario(sim, [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" }]);
    await engine(run.stack.up(), "up");
    const before = live(sim, "acme");
    await run.stack.setConfig("shipping:apiKey", { value: GLOBEX_KEY, secret: true });
    run.state.declared = [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o2" }];
    sim.clearRequests();
    for (const operation of [
      (): Promise<unknown> => run.stack.preview(),
      () => run.stack.up(),
      () => run.stack.refresh(),
      () => run.stack.destroy(),
    ]) {
      const error = String(await failure(engine(operation(), "operation with another shop's key")));
      expect(error).toMatch(
        /now reaches (shop globex \(shop_id 2\)|shop_id 2), but subscription \d+ .* was created in shop_id 1/,
      );
    }
    expect(writesTo(sim)).toBe(0);
    expect(live(sim, "acme")).toEqual(before);
    expect(live(sim, "globex").map((s) => s.hook)).toEqual([SHIPMENTS]);
  });
});

describe("3. the same shop under another name", () => {
  it.each([
    ["a second key of the shop", { apiKey: ACME_SECOND_KEY, baseUrl: undefined }],
    ["the base URL spelled localhost", { apiKey: ACME_KEY, baseUrl: "localhost" }],
  ] as const)("moving a resource to a shop entry with %s keeps the hook subscribed", async (_, entry) => {
    const sim = await simulator();
    const run = await scenario(sim, [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" }]);
    await engine(run.stack.up(), "up");
    const shop = {
      apiKey: entry.apiKey,
      ...(entry.baseUrl !== undefined ? { baseUrl: sim.baseUrl.replace("127.0.0.1", entry.baseUrl) } : {}),
    };
    await run.stack.setConfig("shipping:shops", { value: JSON.stringify({ same: shop }), secret: true });
    run.state.declared = [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o", shop: "same" }];
    await engine(run.stack.up(), "up (moved)");
    expect(live(sim)).toHaveLength(1);
    expect(await recorded(run.stack)).toEqual(live(sim));
    const settled = await engine(run.stack.preview({ refresh: true }), "preview --refresh");
    expect(settled.changeSummary).toEqual({ same: 2 });
  });
});

describe("4. deleteBeforeReplace after another create of the same shop", () => {
  it("posts the replaced hook again instead of adopting the id it just deleted", async () => {
    const sim = await simulator();
    const run = await scenario(sim, [
      {
        name: "orders",
        hook: ORDERS,
        url: "https://hooks.example.com/o",
        options: { deleteBeforeReplace: true },
      },
    ]);
    await engine(run.stack.up(), "up");
    run.state.declared = [
      ...run.state.declared,
      { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
    ];
    const urn = subscriptionResources(await run.stack.exportStack())[0]?.urn as string;
    await engine(run.stack.up({ replace: [urn] }), "up --replace");
    expect(
      live(sim)
        .map((s) => s.hook)
        .sort(),
    ).toEqual([LABELS, ORDERS].sort());
    expect(await recorded(run.stack)).toEqual(live(sim));
  });
});

describe("5. two stacks on one hook, keep-id overwrite mode", () => {
  it("destroy --refresh of the first stack leaves the second stack's subscription alone", async () => {
    const sim = await simulator({ overwrite: "keep-id" });
    const one = await scenario(
      sim,
      [{ name: "orders", hook: ORDERS, url: "https://one.example.com/o" }],
      "one",
    );
    const two = await scenario(
      sim,
      [{ name: "orders", hook: ORDERS, url: "https://two.example.com/o" }],
      "two",
    );
    await engine(one.stack.up(), "up (one)");
    await engine(two.stack.up(), "up (two)");
    await engine(one.stack.destroy({ refresh: true }), "destroy --refresh (one)");
    expect(live(sim)).toEqual(await recorded(two.stack));
    expect(live(sim).map((s) => s.url)).toEqual(["https://two.example.com/o"]);
  });
});

describe("6. one hook declared twice for one shop", () => {
  it("under two names with the same key fails at preview, before any API call", async () => {
    const sim = await simulator();
    const run = await scenario(sim, [
      { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" },
      { name: "orders-again", hook: ORDERS, url: "https://hooks.example.com/o2", shop: "alias" },
    ]);
    await run.stack.setConfig("shipping:shops", {
      value: JSON.stringify({ alias: { apiKey: ACME_KEY } }),
      secret: true,
    });
    const error = String(await failure(engine(run.stack.preview(), "preview")));
    expect(error).toContain("is declared twice for one shop");
    expect(sim.requests()).toEqual([]);
  });

  it("under two keys of one shop fails before the second write", async () => {
    const sim = await simulator();
    await outOfBand(sim.baseUrl, ACME_KEY, (api) =>
      api.create([{ hook: SHIPMENTS, url: "https://pre.example.com/s" }]),
    );
    sim.clearRequests();
    const run = await scenario(sim, [
      { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" },
      { name: "orders-again", hook: ORDERS, url: "https://hooks.example.com/o2", shop: "alias" },
    ]);
    await run.stack.setConfig("shipping:shops", {
      value: JSON.stringify({ alias: { apiKey: ACME_SECOND_KEY } }),
      secret: true,
    });
    const error = String(await failure(engine(run.stack.up(), "up")));
    expect(error).toContain("is declared twice for shop 1");
    expect(sim.requests().filter((r) => r.method === "POST")).toHaveLength(1);
  });
});

describe("7. id lists with unknown ids answered 404 as a whole", () => {
  it("destroy after one out-of-band delete removes the rest; refresh drops only the deleted one", async () => {
    const sim = await simulator({ partialIds: "404" });
    const run = await scenario(sim, [
      { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" },
      { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
      { name: "shipments", hook: SHIPMENTS, url: "https://hooks.example.com/s" },
    ]);
    await engine(run.stack.up(), "up");
    const [gone, ...kept] = live(sim);
    await outOfBand(sim.baseUrl, ACME_KEY, (api) => api.delete([gone?.id ?? 0]));
    await engine(run.stack.refresh(), "refresh");
    expect(await recorded(run.stack)).toEqual(kept);
    const [goneToo] = kept;
    await outOfBand(sim.baseUrl, ACME_KEY, (api) => api.delete([goneToo?.id ?? 0]));
    await engine(run.stack.destroy(), "destroy");
    expect(live(sim)).toEqual([]);
  });
});
