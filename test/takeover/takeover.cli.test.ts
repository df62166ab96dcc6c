/**
 * A subscription that is not the stack's is never taken or lost (issue 34), through the official CLI in a
 * project folder, judged by the live subscriptions and the state:
 * - a partner's subscription of a declared hook is refused by preview and up, on the resource, naming the
 *   hook and the id (never the URL), until the resource opts in with `takeOver: true`; changing that input
 *   replaces nothing and writes nothing; the output `takenOver` then names what was overwritten;
 * - a URL change of the resource's own subscription is no takeover: no refusal, no warning;
 * - `up --continue-on-error` never unsubscribes a hook that another resource of the program declares.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { OfficialProject, type StateResource, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY, TEST_SHOPS } from "../support/shops";

const LABELS = "shipment_label_created";
const ORDERS = "order_status_change";
const PARTNER_URL = "https://partner.example.net/labels-callback";
const OURS = "https://hooks.example.com/labels";

/** A program of two resources; `labels` may opt in to take its hook over. */
function program(labels: { url?: string; takeOver?: boolean } = {}): string {
  const takeOver = labels.takeOver === undefined ? "" : `\n  takeOver: ${labels.takeOver},`;
  return `import { WebhookSubscription } from "pulumi-shipping-webhooks";

const labels = new WebhookSubscription("labels", {
  hook: "${LABELS}",
  url: "${labels.url ?? OURS}",${takeOver}
});
new WebhookSubscription("orders", { hook: "${ORDERS}", url: "https://hooks.example.com/orders" });

export const labelsId = labels.subscriptionId;
export const takenOver = labels.takenOver;
`;
}

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ shops: TEST_SHOPS });
});
afterAll(() => sim.close());

async function project(name: string, source: string): Promise<OfficialProject> {
  const created = await OfficialProject.create(name, {
    ...typescriptProjectFiles(name),
    "index.ts": source,
  });
  await created.initStack(sim.baseUrl, ACME_KEY);
  return created;
}

/** The shop's live subscriptions as `hook=url`, sorted. */
function live(): string[] {
  return sim
    .subscriptions("acme")
    .map((s) => `${s.hook}=${s.url}`)
    .sort();
}

/** The writes the simulator received. */
function writes(): string[] {
  return sim
    .requests()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.status}`);
}

/** The stack's subscriptions as `name=hook`, sorted. */
function recorded(resources: readonly StateResource[]): string[] {
  return resources.map((r) => `${r.urn.split("::").pop()}=${r.outputs?.hook}`).sort();
}

describe("a partner's subscription of a declared hook", () => {
  it("is refused by preview and up on the resource, no URL shown, no write; takeOver: true overwrites it and says so", async () => {
    await sim.reset();
    const partner = new ShippingClient({ baseUrl: sim.baseUrl, apiKey: ACME_KEY });
    const [partnerId] = await partner.create([{ hook: LABELS, url: PARTNER_URL }]);
    await partner.close();
    const shop = await project("takeover-partner", program());
    sim.clearRequests();

    const preview = await shop.pulumi(["preview"]);
    expect(preview.status).not.toBe(0);
    const refusal = new RegExp(
      `WebhookSubscription \\(labels\\):\\n\\s+error: .*resource 'labels': property hook value \\{${LABELS}\\} has a problem: ${LABELS} of the default shop at \\S+ already has subscription ${partnerId}, which calls another URL and which no resource of this stack records.*takeOver: true`,
    );
    expect(preview.stdout).toMatch(refusal);
    expect(`${preview.stdout}${preview.stderr}`).not.toContain(PARTNER_URL);

    const up = await shop.pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.status).not.toBe(0);
    expect(up.stdout).toMatch(refusal);
    expect(`${up.stdout}${up.stderr}`).not.toContain(PARTNER_URL);
    // The partner's subscription is as it was. Whether the engine created the other resource before it
    // stopped on the refusal is the engine's race: what it created is live and in state, nothing else is.
    expect(sim.subscriptions("acme").find((s) => s.hook === LABELS)).toEqual({
      id: partnerId,
      hook: LABELS,
      url: PARTNER_URL,
    });
    expect(writes().filter((w) => w.startsWith("DELETE"))).toEqual([]);
    const ordersLive = live().includes(`${ORDERS}=https://hooks.example.com/orders`);
    expect(recorded(await shop.subscriptions())).toEqual(ordersLive ? [`orders=${ORDERS}`] : []);

    shop.write({ "index.ts": program({ takeOver: true }) });
    await shop.ok(["up", "--yes"]);
    expect(live()).toEqual([`${ORDERS}=https://hooks.example.com/orders`, `${LABELS}=${OURS}`]);
    const outputs = JSON.parse((await shop.ok(["stack", "output", "--json"])).stdout) as Record<
      string,
      unknown
    >;
    expect(outputs.takenOver).toBe(partnerId);

    // Changing the opt-in replaces nothing and writes nothing.
    shop.write({ "index.ts": program({ takeOver: false }) });
    sim.clearRequests();
    const unchanged = await shop.ok(["up", "--yes"]);
    expect(unchanged.stdout).not.toMatch(/replace|error/);
    expect(writes()).toEqual([]);
    expect(live()).toEqual([`${ORDERS}=https://hooks.example.com/orders`, `${LABELS}=${OURS}`]);

    // A destroy's preview shows, in the resource's properties, that it deletes a subscription first made
    // outside the stack.
    const destroyPreview = await shop.ok(["destroy", "--preview-only", "--diff"]);
    expect(destroyPreview.stdout).toMatch(new RegExp(`takenOver\\s*: ${partnerId}`));
  });

  it("a URL change of the resource's own subscription is no takeover: no refusal, no warning", async () => {
    await sim.reset();
    const shop = await project("takeover-own", program());
    await shop.ok(["up", "--yes"]);
    shop.write({ "index.ts": program({ url: "https://hooks.example.com/labels-v2" }) });
    const preview = await shop.ok(["preview"]);
    expect(preview.stdout).not.toMatch(/warning|takes over|overwrite/i);
    await shop.ok(["up", "--yes", "--skip-preview"]);
    expect(live()).toEqual([
      `${ORDERS}=https://hooks.example.com/orders`,
      `${LABELS}=https://hooks.example.com/labels-v2`,
    ]);
    expect(recorded(await shop.subscriptions())).toEqual([`labels=${LABELS}`, `orders=${ORDERS}`]);
  });
});

describe("up --continue-on-error", () => {
  // Without takeOver the new resource is refused at its check, which stops the engine before any delete
  // (test/takeover/takeover.test.ts has both, in the engine's order of calls).
  it("a resource renamed without an alias, URL changed, takeOver, whose POST fails: the old one's delete keeps the hook subscribed", async () => {
    await sim.reset();
    const shop = await project("continue-on-error", program());
    await shop.ok(["up", "--yes"]);
    const renamed = program({ url: "https://hooks.example.com/labels-v2", takeOver: true }).replace(
      'new WebhookSubscription("labels"',
      'new WebhookSubscription("labels-renamed"',
    );
    shop.write({ "index.ts": renamed });
    sim.addFault({ kind: "status", status: 500, method: "POST", count: 20 });
    const up = await shop.pulumi(["up", "--yes", "--skip-preview", "--continue-on-error"]);
    sim.clearFaults();
    expect(up.status).not.toBe(0);
    // The new resource failed at its create, so the engine went on to the old one's delete, which refuses.
    expect(up.stdout).toMatch(/not deleting subscription \d+ \(shipment_label_created\) of the default shop/);
    // The hook the program declares is still subscribed, and the old resource still records it.
    expect(live()).toEqual([`${ORDERS}=https://hooks.example.com/orders`, `${LABELS}=${OURS}`]);
    expect(recorded(await shop.subscriptions())).toEqual([`labels=${LABELS}`, `orders=${ORDERS}`]);
    // The next up, the service answering again, finishes the move.
    await shop.ok(["up", "--yes", "--skip-preview"]);
    expect(live()).toEqual([
      `${ORDERS}=https://hooks.example.com/orders`,
      `${LABELS}=https://hooks.example.com/labels-v2`,
    ]);
    expect(recorded(await shop.subscriptions())).toEqual([`labels-renamed=${LABELS}`, `orders=${ORDERS}`]);
  });
});

describe("up --continue-on-error, a rename that keeps the hook and the URL", () => {
  /** A program of one resource, `name`, subscribing the labels hook to OURS. */
  const labelsOnly = (name: string) =>
    `import { WebhookSubscription } from "pulumi-shipping-webhooks";\n\nnew WebhookSubscription("${name}", { hook: "${LABELS}", url: "${OURS}" });\n`;

  it("a resource renamed without an alias, same hook and URL, whose create fails: the old one's delete keeps the hook subscribed", async () => {
    await sim.reset();
    const shop = await project("continue-same-url", labelsOnly("labels"));
    await shop.ok(["up", "--yes"]);
    const subscribed = sim.subscriptions("acme").map((s) => s.id);
    shop.write({ "index.ts": labelsOnly("labels-renamed") });
    // The new resource adopts the live subscription with no write: the shop's listing of its create failing
    // fails it. Its check lists the shop twice first (one hook per shop across the deployment's provider
    // processes, then the takeover rule), each failure left to the create.
    sim.addFault({ kind: "status", status: 500, method: "GET", request: "listing", count: 3 });
    const up = await shop.pulumi(["up", "--yes", "--skip-preview", "--continue-on-error"]);
    sim.clearFaults();
    expect(up.stdout).toMatch(/labels-renamed \*\*creating failed\*\*/);
    expect(up.stdout).toMatch(/not deleting subscription \d+ \(shipment_label_created\) of the default shop/);
    // Still subscribed, the same subscription, and the old resource still records it.
    expect(live()).toEqual([`${LABELS}=${OURS}`]);
    expect(sim.subscriptions("acme").map((s) => s.id)).toEqual(subscribed);
    expect(recorded(await shop.subscriptions())).toEqual([`labels=${LABELS}`]);
    // The next up, the service answering again, finishes the rename with no write.
    await shop.ok(["up", "--yes", "--skip-preview"]);
    expect(sim.subscriptions("acme").map((s) => `${s.id} ${s.hook}=${s.url}`)).toEqual([
      `${subscribed[0]} ${LABELS}=${OURS}`,
    ]);
    expect(recorded(await shop.subscriptions())).toEqual([`labels-renamed=${LABELS}`]);
  });
});
