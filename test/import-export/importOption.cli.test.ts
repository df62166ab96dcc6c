/**
 * Issue 34: the `import` resource option. A dynamic provider cannot import (the engine's import crashed the
 * provider host with "Cannot read properties of undefined (reading 'toJavaScript')"). The program must
 * fail before anything is registered, naming the resource and the way to adopt a live subscription (`npx
 * pulumi-shipping-webhooks export`), and write nothing at the service nor in state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY, TEST_SHOPS } from "../support/shops";

const ORDERS = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

export const orders = new WebhookSubscription("orders", {
  hook: "order_status_change",
  url: "https://hooks.example.com/orders",
}).subscriptionId;
`;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ shops: TEST_SHOPS });
});
afterAll(() => sim.close());

/** A subscription made at the API directly (the back office, another tool), as the service lists it. */
async function liveLabels(): Promise<number> {
  const client = new ShippingClient({ baseUrl: sim.baseUrl, apiKey: ACME_KEY });
  try {
    await client.create([{ hook: "shipment_label_created", url: "https://hooks.example.com/labels" }]);
  } finally {
    await client.close();
  }
  const made = sim.subscriptions("acme").find((s) => s.hook === "shipment_label_created");
  if (made === undefined) throw new Error("the simulator lists no shipment_label_created subscription");
  return made.id;
}

describe("the import resource option", () => {
  it("fails preview and up naming the resource and `export`; nothing written, the state unchanged", async () => {
    sim.reset();
    const project = await OfficialProject.create("import-option", {
      ...typescriptProjectFiles("import-option"),
      "index.ts": ORDERS,
    });
    await project.ok(["stack", "init", "dev"]);
    await project.ok(["config", "set", "shipping:baseUrl", sim.baseUrl]);
    await project.ok(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
    await project.ok(["up", "--yes", "--skip-preview"]);
    const labelsId = await liveLabels();
    const live = sim.subscriptions("acme");
    const state = (await project.subscriptions()).map((r) => r.id);
    expect(live).toHaveLength(2);

    project.write({
      "index.ts": `${ORDERS}
export const labels = new WebhookSubscription(
  "labels",
  { hook: "shipment_label_created", url: "https://hooks.example.com/labels" },
  { import: "${labelsId}" },
).subscriptionId;
`,
    });
    sim.clearRequests();
    for (const args of [["preview"], ["up", "--yes"]]) {
      const run = await project.pulumi(args);
      const printed = `${run.stdout}\n${run.stderr}`;
      expect(run.status, printed).not.toBe(0);
      expect(run.stdout).toContain(
        'WebhookSubscription "labels": the `import` resource option is not supported (a dynamic provider cannot import). Remove it and adopt the live subscription instead: `npx pulumi-shipping-webhooks export --stack dev`',
      );
      expect(printed).not.toMatch(
        /toJavaScript|Cannot read properties|TypeError|unhandled exception|\n\s+at /,
      );
    }
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(sim.subscriptions("acme")).toEqual(live);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual(state);
  });
});
