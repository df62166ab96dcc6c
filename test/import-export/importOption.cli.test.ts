/**
 * Issue 34: the `import` resource option. A dynamic provider cannot import (the engine's import crashed the
 * provider host with "Cannot read properties of undefined (reading 'toJavaScript')"). The program must
 * fail before anything is registered, naming the resource and the way to adopt a live subscription (`npx
 * pulumi-shipping-webhooks export`), and write nothing at the service nor in state.
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";

const ORDERS = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

export const orders = new WebhookSubscription("orders", {
  hook: "order_status_change",
  url: "https://hooks.example.com/orders",
}).subscriptionId;
`;

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

/** A subscription made at the API directly (the back office, another tool), as the service lists it. */
async function liveLabels(): Promise<number> {
  const client = new ShippingClient({ baseUrl: acme.sim.baseUrl, apiKey: ACME_KEY });
  try {
    await client.create([{ hook: "shipment_label_created", url: "https://hooks.example.com/labels" }]);
  } finally {
    await client.close();
  }
  const made = acme.sim.subscriptions("acme").find((s) => s.hook === "shipment_label_created");
  if (made === undefined) throw new Error("the simulator lists no shipment_label_created subscription");
  return made.id;
}

describe("the import resource option", () => {
  it("fails preview and up naming the resource and `export`; nothing written, the state unchanged", async () => {
    const project = await OfficialProject.create("import-option", {
      ...typescriptProjectFiles("import-option"),
      "index.ts": ORDERS,
    });
    await project.initStack(acme.sim.baseUrl, ACME_KEY);
    await project.ok(["up", "--yes", "--skip-preview"]);
    const labelsId = await liveLabels();
    const live = acme.sim.subscriptions("acme");
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
    acme.sim.clearRequests();
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
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(acme.sim.subscriptions("acme")).toEqual(live);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual(state);
  });
});
